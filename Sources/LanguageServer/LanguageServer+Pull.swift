import Findings
import Foundation
import ReswatchProtocol

/// Pull diagnostics (LSP 3.17 `textDocument/diagnostic`, `workspace/diagnostic`) beside the push
/// (`textDocument/publishDiagnostics`) every client gets.
///
/// A client that pulls and can be told to pull again (`workspace.diagnostics.refreshSupport`) gets
/// the findings of the files it has open by pull only, and those of every other file (a PNG, a
/// Contents.json nobody opened) by push: each finding is shown once. Any other client gets
/// everything by push, and its pulls are answered too.
///
/// A pull is never answered "no findings" for what reswatch has not checked: before the daemon's
/// findings arrive, after it is lost, and for a file outside the workspace folders, the answer is
/// an error that says why (and `workspace/diagnostic/refresh` follows when findings arrive).
extension LanguageServer {
    /// Whether the findings in hand are the daemon's, for the folders.
    enum Coverage: Equatable {
        case waiting(String)
        case current
    }

    /// LSP 3.17's `ServerCancelled`: the server cannot answer now (the client is told to pull again).
    static let serverCancelled = -32802
    /// LSP 3.17's `RequestFailed`.
    static let requestFailed = -32803

    /// From `initialize`'s client capabilities.
    static func pullsWithRefresh(_ capabilities: JSONValue?) -> Bool {
        capabilities?["textDocument"]?["diagnostic"] != nil
            && capabilities?["workspace"]?["diagnostics"]?["refreshSupport"] == .bool(true)
    }

    var diagnosticProvider: JSONValue {
        .object([
            "identifier": .string("reswatch"),
            // A Contents.json edit changes the findings of the PNGs it names.
            "interFileDependencies": .bool(true),
            "workspaceDiagnostics": .bool(true),
        ])
    }

    /// The result id of a file's current findings.
    func resultID(_ file: String) -> String { "\(sessionID).\(versions[file] ?? 0)" }

    func documentDiagnostic(id: JSONValue, _ params: JSONValue) {
        guard let uri = params["textDocument"]?["uri"]?.string, let file = DocumentURI.path(of: uri) else {
            return reply(error: id, code: -32602, "Invalid params: textDocument.uri is not a file: URI")
        }
        guard inFolders(file) else {
            return reply(
                error: id, code: Self.requestFailed,
                "reswatch does not check \(file): it is outside the workspace folders (\(folders.joined(separator: ", ")))",
                data: .object(["retriggerRequest": .bool(false)]))
        }
        if let why = notCovered([folder(of: file)]) { return notChecked(id, why) }
        reply(id: id, result: report(file, previous: params["previousResultId"]?.string))
    }

    func workspaceDiagnostic(id: JSONValue, _ params: JSONValue) {
        if let why = notCovered(folders) { return notChecked(id, why) }
        var previous: [String: String] = [:]
        for entry in params["previousResultIds"]?.array ?? [] {
            if let file = entry["uri"]?.string.flatMap(DocumentURI.path(of:)), let value = entry["value"]?.string { previous[file] = value }
        }
        // Every file with findings, and every file the client holds an answer for (it may be clean now).
        let files = Set(findings.keys).union(previous.keys.filter(inFolders)).sorted()
        let items: [JSONValue] = files.map { file in
            guard case .object(var item) = report(file, previous: previous[file]) else { return .null }
            item["uri"] = .string(DocumentURI.from(path: file))
            item["version"] = .null
            return .object(item)
        }
        reply(id: id, result: .object(["items": .array(items)]))
    }

    /// A full report, or `unchanged` when the client's result id is still current.
    func report(_ file: String, previous: String?) -> JSONValue {
        let current = resultID(file)
        if previous == current { return .object(["kind": .string("unchanged"), "resultId": .string(current)]) }
        let list = (findings[file] ?? []).sorted(by: Diagnostic.stableOrder)
        return .object(["kind": .string("full"), "resultId": .string(current), "items": .array(list.map(mapping.lsp))])
    }

    /// The workspace folder a file is in (the innermost, when folders nest).
    func folder(of file: String) -> String {
        folders.filter { file == $0 || file.hasPrefix($0 == "/" ? "/" : $0 + "/") }.max { $0.count < $1.count } ?? file
    }

    /// Why the findings of these folders are not complete, or nil when they are.
    func notCovered(_ wanted: [String]) -> String? {
        if case .waiting(let why) = coverage { return why }
        for folder in wanted where !scanned.contains(folder) {
            if let problem = folderProblems[folder] { return "the daemon cannot watch \(folder): \(problem)" }
            return "the daemon is still scanning \(folder)"
        }
        return nil
    }

    func notChecked(_ id: JSONValue, _ why: String) {
        reply(
            error: id, code: Self.serverCancelled, "reswatch has no findings to give yet: \(why)",
            data: .object(["retriggerRequest": .bool(false)]))  // workspace/diagnostic/refresh follows
    }

    /// The client should pull again (its open files' findings changed, or findings arrived).
    func requestRefresh() {
        guard clientPulls else { return }
        refreshRequests += 1
        send(
            .object([
                "jsonrpc": .string("2.0"), "id": .string("reswatch-refresh-\(refreshRequests)"),
                "method": .string("workspace/diagnostic/refresh"),
            ]))
    }

    /// `textDocument/didOpen` and `didClose` (sent only to a pulling client's server): an open file's
    /// findings leave the push (the client pulls them), a closed one's come back to it.
    func documentOpened(_ params: JSONValue, open isOpen: Bool) {
        guard clientPulls, let file = params["textDocument"]?["uri"]?.string.flatMap(DocumentURI.path(of:)), inFolders(file) else { return }
        if isOpen {
            openFiles.insert(file)
            if published.contains(file) { sendPublish(file, []) }
        } else {
            openFiles.remove(file)
            publish([file])
        }
    }
}
