import Findings
import Foundation
import ProjectModel
import Repair
import ReswatchProtocol
import SystemCalls

/// Quick fixes: the repairs of `reswatch fix` (the Repair module), offered as LSP code actions.
/// Each is computed from the files on disk (the findings are about the disk) and sent as the
/// smallest text edit that turns the file into the repaired one, so the rest of the file stays as
/// written. A repair that is no text edit (an image written, a file created or renamed) is a
/// command, `reswatch.fix`, that the daemon's `fix` carries out (with its journal and undo).
enum CodeActions {
    /// The command of a repair the daemon carries out.
    static let fixCommand = "reswatch.fix"

    /// What `reswatch.fix` repairs: one finding, by its file (absolute), rule and line.
    struct FixTarget: Equatable {
        var path: String
        var rule: String
        var line: Int?
    }

    struct Edit: Equatable {
        var path: String
        var start: Int
        var end: Int
        var newText: String
    }

    struct Action: Equatable {
        var title: String
        var edits: [Edit]
        /// Set for a repair the daemon carries out (then `edits` is empty).
        var fix: FixTarget?

        init(title: String, edits: [Edit], fix: FixTarget? = nil) {
            self.title = title
            self.edits = edits
            self.fix = fix
        }
    }

    /// Rules some repair handles, and the removal of an entry that maps to no slot.
    static var fixable: Set<String> { Repairer.repairableRules.union(["icon.unassigned"]) }

    static func read(_ path: String) -> [UInt8]? { try? FileSystem.readFile(path, limit: FileLimits.bytes(for: path)) }

    /// The fixes for one finding as the daemon sent it.
    static func actions(for finding: Diagnostic) -> [Action] {
        var out: [Action] = []
        if finding.rule == "icon.unassigned", finding.path.hasSuffix("Contents.json"),
            let remove = removeEntry(contents: DiagnosticMapping.file(of: finding), line: finding.line)
        {
            out.append(remove)
        }
        // A repair that needs the project's targets is the daemon's to plan: offered as its command.
        if let title = Repairer.projectRepairs[finding.rule] {
            let target = FixTarget(path: DiagnosticMapping.file(of: finding), rule: finding.rule, line: finding.line)
            return out + [Action(title: title + " (reswatch writes it; fix --undo restores)", edits: [], fix: target)]
        }
        let plan = Repairer.plan(root: finding.root, diagnostics: [finding], projects: [])
        for repair in plan.repairs {
            var edits: [Edit] = []
            for change in repair.changes {
                // A created file, a rename or an image (a PNG rewritten) cannot be a text edit
                // without corrupting it: those go to the daemon.
                guard case .write(let path, let original?, let new) = change, isText(original), isText(new) else {
                    edits = []
                    break
                }
                edits.append(minimalEdit(path: finding.root + "/" + path, from: original, to: new))
            }
            if edits.isEmpty {
                let target = FixTarget(path: DiagnosticMapping.file(of: finding), rule: finding.rule, line: finding.line)
                out.append(Action(title: repair.title + " (reswatch writes it; fix --undo restores)", edits: [], fix: target))
            } else {
                out.append(Action(title: repair.title, edits: edits))
            }
        }
        return out
    }

    /// UTF-8 text with no NUL: what an editor's text edit can carry.
    static func isText(_ bytes: [UInt8]) -> Bool { !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil }

    /// The one replacement that turns `old` into `new`: what lies between their common start and end.
    static func minimalEdit(path: String, from old: [UInt8], to new: [UInt8]) -> Edit {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        // From the start of that line (an added line reads as one), which also keeps to a
        // character boundary: a UTF-8 sequence is never split.
        while prefix > 0, old[prefix - 1] != 0x0A { prefix -= 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        while suffix > 0, old.count - suffix < old.count, old[old.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
        return Edit(
            path: path, start: prefix, end: old.count - suffix, newText: String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self)
        )
    }

    /// An entry that maps to no valid slot: remove it (with one adjacent comma).
    static func removeEntry(contents path: String, line: Int?) -> Action? {
        guard let line, let bytes = read(path), let spans = JSONSpans.arrayElements(in: bytes, key: "images"),
            let index = spans.firstIndex(where: { TextPosition.line(of: $0.lowerBound, in: bytes) == line })
        else { return nil }
        var start = spans[index].lowerBound
        var end = spans[index].upperBound
        if index + 1 < spans.count {
            end = spans[index + 1].lowerBound  // up to the next entry: its comma and the layout before it
        } else if index > 0 {
            start = spans[index - 1].upperBound  // from the previous entry's end: the comma before
        }
        return Action(
            title: "Remove the entry that maps to no app icon slot", edits: [Edit(path: path, start: start, end: end, newText: "")])
    }

    /// The action as LSP `CodeAction` JSON (`diagnostic`: the one it fixes, when shown on the
    /// document asked about).
    static func lsp(_ action: Action, diagnostic: JSONValue?) -> JSONValue {
        var out: [String: JSONValue] = ["title": .string(action.title), "kind": .string("quickfix")]
        if let diagnostic { out["diagnostics"] = .array([diagnostic]) }
        if let fix = action.fix {
            var argument: [String: JSONValue] = ["path": .string(fix.path), "rule": .string(fix.rule)]
            if let line = fix.line { argument["line"] = .integer(Int64(line)) }
            out["command"] = .object([
                "title": .string(action.title), "command": .string(fixCommand), "arguments": .array([.object(argument)]),
            ])
        } else {
            out["edit"] = .object(["changes": .object(changes(action.edits))])
        }
        return .object(out)
    }

    /// A WorkspaceEdit's `changes`: each edit as a range of its file.
    static func changes(_ edits: [Edit]) -> [String: JSONValue] {
        var changes: [String: [JSONValue]] = [:]
        for edit in edits {
            let bytes = read(edit.path) ?? []
            let s = TextPosition.position(of: edit.start, in: bytes)
            let e = TextPosition.position(of: edit.end, in: bytes)
            let range: JSONValue = .object([
                "start": .object(["line": .integer(Int64(s.line)), "character": .integer(Int64(s.character))]),
                "end": .object(["line": .integer(Int64(e.line)), "character": .integer(Int64(e.character))]),
            ])
            changes[DocumentURI.from(path: edit.path), default: []].append(.object(["range": range, "newText": .string(edit.newText)]))
        }
        return changes.mapValues { .array($0) }
    }
}
