import Foundation
import ImageFacts
import ProjectModel
import ReswatchProtocol
import SystemCalls

/// Quick fixes for findings whose repair is mechanical. Each edit is computed from the file on
/// disk (the findings are about the disk), as a minimal text edit that keeps the rest of the
/// file as written.
enum CodeActions {
    struct Edit: Equatable {
        var path: String
        var start: Int
        var end: Int
        var newText: String
    }

    struct Action: Equatable {
        var title: String
        var edit: Edit
    }

    static let fixable: Set<String> = ["icon.unassigned", "launch.storyboard-missing"]

    /// The fixes for one finding shown on `path` (absolute) at `line` (1-based).
    static func actions(rule: String, path: String, line: Int?, message: String) -> [Action] {
        switch rule {
        case "icon.unassigned":
            if path.hasSuffix("/Contents.json") { return removeEntry(contents: path, line: line).map { [$0] } ?? [] }
            return assignFile(path)
        case "launch.storyboard-missing": return stripStoryboardExtension(plist: path)
        default: return []
        }
    }

    static func read(_ path: String) -> [UInt8]? { try? FileSystem.readFile(path, limit: FileLimits.bytes(for: path)) }

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
        return Action(title: "Remove the entry that maps to no app icon slot", edit: Edit(path: path, start: start, end: end, newText: ""))
    }

    /// A file in an icon set that Contents.json does not name: when exactly one entry without a
    /// `filename` expects its pixel size, name it there.
    static func assignFile(_ file: String) -> [Action] {
        let folder = (file as NSString).deletingLastPathComponent
        let name = (file as NSString).lastPathComponent
        let contents = folder + "/Contents.json"
        guard let header = (try? PNGReader.inspect(path: file))?.header, let bytes = read(contents),
            let spans = JSONSpans.arrayElements(in: bytes, key: "images")
        else { return [] }
        var candidates: [(Range<Int>, String)] = []
        for span in spans {
            guard let entry = (try? JSONSerialization.jsonObject(with: Data(bytes[span]))) as? [String: Any], entry["filename"] == nil,
                let size = entry["size"] as? String, let scale = entry["scale"] as? String ?? "1x" as String?,
                let pixels = pixels(size: size, scale: scale)
            else { continue }
            if pixels == (header.width, header.height) {
                let idiom = entry["idiom"] as? String ?? "universal"
                candidates.append((span, "\(idiom) \(size) @\(scale)"))
            }
        }
        guard candidates.count == 1, let (span, slot) = candidates.first else { return [] }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return [
            Action(
                title: "Assign \(name) to the \(slot) slot in Contents.json",
                edit: Edit(
                    path: contents, start: span.lowerBound + 1, end: span.lowerBound + 1, newText: "\n      \"filename\" : \"\(escaped)\",")
            )
        ]
    }

    /// "60x60" at "2x" → 120×120; "83.5x83.5" at "2x" → 167×167.
    static func pixels(size: String, scale: String) -> (Int, Int)? {
        let parts = size.split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), scale.hasSuffix("x"),
            let s = Double(scale.dropLast())
        else { return nil }
        // Hostile sizes ("1e300x1") give no slot rather than a trap.
        guard let pw = CheckedNumber.rounded(w * s, in: 1...CheckedNumber.maximumPixels),
            let ph = CheckedNumber.rounded(h * s, in: 1...CheckedNumber.maximumPixels)
        else { return nil }
        return (pw, ph)
    }

    /// `UILaunchStoryboardName` (or a ~iphone/~ipad variant) with an extension in an XML plist:
    /// keep the base name.
    static func stripStoryboardExtension(plist path: String) -> [Action] {
        guard let bytes = read(path), let text = String(validating: bytes, as: UTF8.self) else { return [] }
        var actions: [Action] = []
        for key in ["UILaunchStoryboardName", "UILaunchStoryboardName~iphone", "UILaunchStoryboardName~ipad"] {
            guard let keyRange = text.range(of: "<key>\(key)</key>") else { continue }
            let after = text[keyRange.upperBound...]
            guard let open = after.range(of: "<string>"), after[after.startIndex..<open.lowerBound].allSatisfy(\.isWhitespace),
                let close = after[open.upperBound...].range(of: "</string>")
            else { continue }
            let value = String(after[open.upperBound..<close.lowerBound])
            guard let dot = value.lastIndex(of: "."), [".storyboard", ".xib", ".storyboardc", ".nib"].contains(String(value[dot...]))
            else { continue }
            let start = text.utf8.distance(from: text.utf8.startIndex, to: open.upperBound)
            let end = text.utf8.distance(from: text.utf8.startIndex, to: close.lowerBound)
            actions.append(
                Action(
                    title: "Write \(key) as \"\(value[..<dot])\" (without the extension)",
                    edit: Edit(path: path, start: start, end: end, newText: String(value[..<dot]))))
        }
        return actions
    }

    /// The action as LSP `CodeAction` JSON.
    static func lsp(_ action: Action, diagnostic: JSONValue) -> JSONValue {
        let bytes = read(action.edit.path) ?? []
        let s = TextPosition.position(of: action.edit.start, in: bytes)
        let e = TextPosition.position(of: action.edit.end, in: bytes)
        let range: JSONValue = .object([
            "start": .object(["line": .integer(Int64(s.line)), "character": .integer(Int64(s.character))]),
            "end": .object(["line": .integer(Int64(e.line)), "character": .integer(Int64(e.character))]),
        ])
        return .object([
            "title": .string(action.title),
            "kind": .string("quickfix"),
            "diagnostics": .array([diagnostic]),
            "edit": .object([
                "changes": .object([
                    DocumentURI.from(path: action.edit.path): .array([.object(["range": range, "newText": .string(action.edit.newText)])])
                ])
            ]),
        ])
    }
}
