import Findings
import Foundation
import ReswatchProtocol
import SystemCalls

/// `reswatch lsp`: a Language Server (LSP 3.17) that shows the daemon's findings for every file
/// in the workspace folders, open or not, and offers quick fixes where the repair is mechanical.
/// docs/editors.md has the setup for each editor.
package actor LanguageServer {
    package struct Options: Sendable {
        /// The daemon's socket.
        package var socket: String
        /// Called when no daemon answers at `socket` (starts one and waits until it answers), or
        /// nil: then the user is told, and nothing is checked.
        package var startDaemon: (@Sendable () throws -> Void)?
        package var rulesURL: String
        package var version: String

        package init(socket: String, startDaemon: (@Sendable () throws -> Void)?, rulesURL: String, version: String) {
            self.socket = socket
            self.startDaemon = startDaemon
            self.rulesURL = rulesURL
            self.version = version
        }
    }

    let options: Options
    let send: @Sendable (JSONValue) -> Void
    let mapping: DiagnosticMapping
    var initialized = false
    var shutdownRequested = false
    var folders: [String] = []
    var link: DaemonLink?
    /// Findings by the absolute path they are shown on (inside the folders only).
    var findings: [String: [Diagnostic]] = [:]
    var published: Set<String> = []
    /// Findings' repairs that are commands only, planned once (editors ask for code actions at every
    /// cursor move, and an icon's plan resamples its master); dropped whenever the findings change.
    var plannedActions: [Diagnostic: [CodeActions.Action]] = [:]

    package init(options: Options, send: @escaping @Sendable (JSONValue) -> Void) {
        self.options = options
        self.send = send
        self.mapping = DiagnosticMapping(rulesURL: options.rulesURL)
    }

    /// What the caller does after a message.
    package enum Next: Sendable, Equatable {
        case carryOn
        case exit(Int32)
    }

    // MARK: - messages from the editor

    package func receive(_ bytes: [UInt8]) -> Next {
        guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)), case .object(let object) = message else {
            reply(error: .null, code: -32700, "Parse error: the message is not a JSON object")
            return .carryOn
        }
        guard case .string(let method)? = object["method"] else { return .carryOn }  // a response to us: none expected
        let id = object["id"]
        let params = object["params"] ?? .null
        guard let id else {
            return notification(method, params)
        }
        request(method, id: id, params)
        return .carryOn
    }

    func request(_ method: String, id: JSONValue, _ params: JSONValue) {
        if method == "initialize" {
            guard !initialized else { return reply(error: id, code: -32600, "initialize was already received") }
            initialize(id: id, params)
            return
        }
        guard initialized else { return reply(error: id, code: -32002, "Server not initialized: send initialize first") }
        if shutdownRequested { return reply(error: id, code: -32600, "the server is shutting down") }
        switch method {
        case "shutdown":
            shutdownRequested = true
            reply(id: id, result: .null)
        case "textDocument/codeAction":
            reply(id: id, result: codeActions(params))
        case "workspace/executeCommand":
            executeCommand(id: id, params)
        default:
            reply(error: id, code: -32601, "Method not found: \(method)")
        }
    }

    func notification(_ method: String, _ params: JSONValue) -> Next {
        switch method {
        case "exit": return .exit(shutdownRequested ? 0 : 1)
        case "initialized" where initialized: connect()
        case "workspace/didChangeWorkspaceFolders" where initialized:
            let event = params["event"]
            let added = (event?["added"]?.array ?? []).compactMap { $0["uri"]?.string.flatMap(DocumentURI.path(of:)) }
            let removed = Set((event?["removed"]?.array ?? []).compactMap { $0["uri"]?.string.flatMap(DocumentURI.path(of:)) })
            folders = folders.filter { !removed.contains($0) } + added.filter { !folders.contains($0) }
            link?.update(added: added, removed: removed)
            let stale = findings.keys.filter { !inFolders($0) }
            for file in stale { findings[file] = nil }
            publish(Set(stale).union(published.filter { !inFolders($0) }))
        default: break  // didOpen/didChange/didSave…: reswatch reads the files on disk
        }
        return .carryOn
    }

    func initialize(id: JSONValue, _ params: JSONValue) {
        var uris = (params["workspaceFolders"]?.array ?? []).compactMap { $0["uri"]?.string }
        if uris.isEmpty, let root = params["rootUri"]?.string { uris = [root] }
        folders = uris.compactMap(DocumentURI.path(of:))
        if uris.isEmpty, let path = params["rootPath"]?.string, path.hasPrefix("/") { folders = [path] }
        initialized = true
        reply(
            id: id,
            result: .object([
                "capabilities": .object([
                    "textDocumentSync": .integer(0),
                    "codeActionProvider": .object(["codeActionKinds": .array([.string("quickfix")])]),
                    "executeCommandProvider": .object(["commands": .array([.string(CodeActions.fixCommand)])]),
                    "workspace": .object([
                        "workspaceFolders": .object(["supported": .bool(true), "changeNotifications": .bool(true)])
                    ]),
                ]),
                "serverInfo": .object(["name": .string("reswatch"), "version": .string(options.version)]),
            ]))
    }

    /// Finds (or starts) the daemon and follows its findings for the folders.
    func connect() {
        guard link == nil else { return }
        if folders.isEmpty {
            showMessage(
                2, "reswatch: no workspace folder was given, so no file is checked. Open a folder (or a project) instead of a lone file.")
        }
        do throws(ClientError) { _ = try ReswatchClient(path: options.socket) } catch {
            // A daemon is there but this user may not use it, or it cannot be trusted: starting
            // another would not help; say why.
            switch error {
            case .accessDenied, .untrusted:
                showMessage(1, "reswatch: \(error) Nothing is checked.")
                return
            default: break
            }
            guard let start = options.startDaemon else {
                showMessage(
                    1,
                    "reswatch: no daemon answers at \(options.socket), and starting one was turned off (--no-start-daemon): nothing is checked. Start one with 'reswatch daemon'."
                )
                return
            }
            do { try start() } catch {
                showMessage(1, "reswatch: cannot start a daemon at \(options.socket): \(error). Nothing is checked.")
                return
            }
        }
        let link = DaemonLink(socket: options.socket)
        self.link = link
        link.start(folders: folders)
        Task { for await event in link.events { self.apply(event) } }
    }

    // MARK: - findings from the daemon

    func apply(_ event: DaemonEvent) {
        plannedActions = [:]
        switch event {
        case .snapshot(let all):
            let before = Set(findings.keys)
            findings = [:]
            for d in all { add(d) }
            publish(before.union(findings.keys))
        case .changed(let added, let removed):
            var touched = Set<String>()
            for d in removed {
                let file = DiagnosticMapping.file(of: d)
                if let i = findings[file]?.firstIndex(of: d) {
                    findings[file]!.remove(at: i)
                    if findings[file]!.isEmpty { findings[file] = nil }
                    touched.insert(file)
                }
            }
            for d in added { if let file = add(d) { touched.insert(file) } }
            publish(touched)
        case .message(let type, let text):
            showMessage(type, text)
        case .lost(let reason):
            showMessage(1, "reswatch: lost the daemon (\(reason)); its findings are cleared until it answers again.")
            let files = Set(findings.keys)
            findings = [:]
            publish(files)
        }
    }

    @discardableResult
    func add(_ d: Diagnostic) -> String? {
        let file = DiagnosticMapping.file(of: d)
        guard inFolders(file) else { return nil }
        findings[file, default: []].append(d)
        return file
    }

    func inFolders(_ path: String) -> Bool {
        folders.contains { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    /// `textDocument/publishDiagnostics` for each file (an empty list clears a fixed file).
    func publish(_ files: Set<String>) {
        for file in files.sorted() {
            let list = (findings[file] ?? []).sorted(by: Diagnostic.stableOrder)
            if list.isEmpty && !published.contains(file) { continue }
            if list.isEmpty { published.remove(file) } else { published.insert(file) }
            send(
                .object([
                    "jsonrpc": .string("2.0"), "method": .string("textDocument/publishDiagnostics"),
                    "params": .object(["uri": .string(DocumentURI.from(path: file)), "diagnostics": .array(list.map(mapping.lsp))]),
                ]))
        }
    }

    // MARK: - output

    func reply(id: JSONValue, result: JSONValue) {
        send(.object(["jsonrpc": .string("2.0"), "id": id, "result": result]))
    }

    func reply(error id: JSONValue, code: Int, _ message: String) {
        send(
            .object([
                "jsonrpc": .string("2.0"), "id": id, "error": .object(["code": .integer(Int64(code)), "message": .string(message)]),
            ]))
    }

    func showMessage(_ type: Int, _ text: String) {
        send(
            .object([
                "jsonrpc": .string("2.0"), "method": .string("window/showMessage"),
                "params": .object(["type": .integer(Int64(type)), "message": .string(text)]),
            ]))
    }

    /// A broken byte stream: said to the editor (and on stderr), then the server stops.
    package func framingError(_ text: String) {
        reply(error: .null, code: -32700, "Parse error: \(text); the stream cannot be followed, the server stops")
    }
}

extension LanguageServer {
    /// True once `shutdown` was answered (an end of input is then a clean exit).
    package var isShuttingDown: Bool { shutdownRequested }
}
