import Findings
import Foundation
import Repair
import ReswatchProtocol
import SystemCalls

/// Quick fixes: a repair is offered on the file its finding is shown on, and on the files the
/// finding points at (an image's finding on its Contents.json entry). A text repair is an edit the
/// editor makes; any other is the `reswatch.fix` command, which the daemon carries out.
extension LanguageServer {
    func codeActions(_ params: JSONValue) -> JSONValue {
        guard let uri = params["textDocument"]?["uri"]?.string, let path = DocumentURI.path(of: uri) else { return .array([]) }
        var out: [JSONValue] = []
        var offered = Set<Diagnostic>()
        // The findings shown here that the editor asks about.
        for lsp in params["context"]?["diagnostics"]?.array ?? [] {
            guard lsp["source"]?.string == "reswatch", let rule = lsp["code"]?.string, CodeActions.fixable.contains(rule) else { continue }
            let line = lsp["range"]?["start"]?["line"]?.int.map { $0 + 1 }
            // The finding as the daemon sent it (the client may have cut the message).
            guard let finding = findings[path]?.first(where: { $0.rule == rule && ($0.line ?? 1) == (line ?? 1) }),
                offered.insert(finding).inserted
            else { continue }
            for action in actions(for: finding) { out.append(CodeActions.lsp(action, diagnostic: lsp)) }
        }
        // Findings shown on another file whose place here lies in the range asked about.
        let first = (params["range"]?["start"]?["line"]?.int ?? 0) + 1
        let last = max(first, (params["range"]?["end"]?["line"]?.int ?? 0) + 1)
        for finding in findings.values.joined().sorted(by: Diagnostic.stableOrder)
        where CodeActions.fixable.contains(finding.rule) && !offered.contains(finding) {
            let here = finding.relatedLocations.contains { place in
                finding.root + "/" + place.path == path && (first...last).contains(place.line ?? 1)
            }
            guard here else { continue }
            offered.insert(finding)
            for action in actions(for: finding) { out.append(CodeActions.lsp(action, diagnostic: nil)) }
        }
        return .array(out)
    }

    /// A finding's repairs. Those that are only commands (an image remade: the costly plans) are
    /// kept until the findings change; the daemon plans them again when one runs. Text edits are
    /// planned at each request: their offsets are into the file as it is now.
    func actions(for finding: Diagnostic) -> [CodeActions.Action] {
        if let planned = plannedActions[finding] { return planned }
        let planned = CodeActions.actions(for: finding)
        if !planned.isEmpty, planned.allSatisfy({ $0.fix != nil }) { plannedActions[finding] = planned }
        return planned
    }

    /// `workspace/executeCommand` `reswatch.fix {path, rule, line?}`: the daemon's `fix` with
    /// `apply` for that one finding. The editor is told what changed (and how to undo it); the
    /// findings then follow from the daemon as after any change.
    func executeCommand(id: JSONValue, _ params: JSONValue) {
        guard params["command"]?.string == CodeActions.fixCommand else {
            return reply(
                error: id, code: -32602, "unknown command \(params["command"]?.string ?? "(none)"): reswatch has \(CodeActions.fixCommand)")
        }
        let argument = params["arguments"]?.array?.first
        // A plain absolute path: no "." or ".." that could step out of the folder it appears to be in.
        guard let path = argument?["path"]?.string, path.hasPrefix("/"),
            !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }), inFolders(path),
            let rule = argument?["rule"]?.string, Repairer.repairableRules.contains(rule)
        else {
            return reply(
                error: id, code: -32602,
                "\(CodeActions.fixCommand) takes {path, rule, line?}: a file in a workspace folder and a rule reswatch repairs")
        }
        let line = argument?["line"]?.int
        if argument?["line"] != nil && (line ?? 0) < 1 { return reply(error: id, code: -32602, "line must be a positive number") }
        let socket = options.socket
        // The client blocks (up to the daemon's whole repair): on a thread of its own, never on
        // the cooperative pool, whose few threads the server's actor needs.
        let thread = Thread { [self] in
            ThreadName.setCurrent("rw-lsp-fix")
            let outcome: Result<FixResult, ClientError>
            do throws(ClientError) {
                let client = try ReswatchClient(path: socket)
                let params = FixParams(path: path, apply: true, only: [rule], line: line)
                outcome = .success(try client.call(FixRequest.self, params, timeoutMilliseconds: 600_000))
            } catch { outcome = .failure(error) }
            Task { await self.fixDone(id: id, outcome) }
        }
        thread.start()
    }

    func fixDone(id: JSONValue, _ outcome: Result<FixResult, ClientError>) {
        switch outcome {
        case .failure(let error):
            showMessage(1, "reswatch: the repair was not made: \(error)")
            reply(error: id, code: -32603, "the repair was not made: \(error)")
        case .success(let result) where result.repairs.isEmpty:
            let why = result.left.first.map { ": \($0.reason)" } ?? " (it was fixed already, or the file changed)"
            showMessage(2, "reswatch: nothing was repaired\(why)")
            reply(id: id, result: .null)
        case .success(let result):
            let files = Set(result.repairs.flatMap { $0.changes.map { $0.to ?? $0.path } }).sorted()
            showMessage(
                3,
                "reswatch: \(result.repairs.map(\.title).joined(separator: "; ")). Changed \(files.joined(separator: ", ")); `reswatch fix --undo \(result.root)` restores them."
            )
            reply(id: id, result: .null)
        }
    }
}
