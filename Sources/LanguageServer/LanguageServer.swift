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
        /// The server's own log (`lsp.log`), or nil when it could not be opened.
        package var log: ServerLogFile?
        /// Where a daemon `startDaemon` starts writes its log, to tell the user.
        package var daemonLog: String?

        package init(
            socket: String, startDaemon: (@Sendable () throws -> Void)?, rulesURL: String, version: String, log: ServerLogFile? = nil,
            daemonLog: String? = nil
        ) {
            self.socket = socket
            self.startDaemon = startDaemon
            self.rulesURL = rulesURL
            self.version = version
            self.log = log
            self.daemonLog = daemonLog
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
    // Pull diagnostics (LanguageServer+Pull.swift).
    var coverage = Coverage.waiting("the daemon's findings for the workspace have not arrived yet")
    var clientPulls = false
    var openFiles: Set<String> = []
    /// Bumped each time a file's findings are published: the pull result ids.
    var versions: [String: Int] = [:]
    let sessionID = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    var refreshRequests = 0
    /// Workspace folders the daemon has scanned and watches, and why others are not watched.
    var scanned: Set<String> = []
    var folderProblems: [String: String] = [:]
    var pendingWarnings: [String] = []

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
        case "textDocument/diagnostic":
            documentDiagnostic(id: id, params)
        case "workspace/diagnostic":
            workspaceDiagnostic(id: id, params)
        default:
            logMessage(4, "unsupported request \(method.prefix(200))")
            reply(error: id, code: -32601, "Method not found: \(method)")
        }
    }

    func notification(_ method: String, _ params: JSONValue) -> Next {
        switch method {
        case "exit":
            options.log?.write(type: 3, "exit (\(shutdownRequested ? "after shutdown" : "without shutdown: status 1"))")
            return .exit(shutdownRequested ? 0 : 1)
        case "textDocument/didOpen" where initialized: documentOpened(params, open: true)
        case "textDocument/didClose" where initialized: documentOpened(params, open: false)
        case "initialized" where initialized: connect()
        case "workspace/didChangeWorkspaceFolders" where initialized:
            let event = params["event"]
            let added = (event?["added"]?.array ?? []).compactMap { $0["uri"]?.string.flatMap(DocumentURI.path(of:)) }
            let removed = Set((event?["removed"]?.array ?? []).compactMap { $0["uri"]?.string.flatMap(DocumentURI.path(of:)) })
            folders = folders.filter { !removed.contains($0) } + added.filter { !folders.contains($0) }
            scanned.subtract(removed)
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
        clientPulls = Self.pullsWithRefresh(params["capabilities"])
        reply(
            id: id,
            result: .object([
                "capabilities": .object([
                    // A pulling client says which files it has open (their findings go by pull).
                    "textDocumentSync": clientPulls ? .object(["openClose": .bool(true), "change": .integer(0)]) : .integer(0),
                    "diagnosticProvider": diagnosticProvider,
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
        for warning in pendingWarnings { showMessage(2, warning) }
        pendingWarnings = []
        logMessage(
            3,
            "reswatch \(options.version) language server (pid \(getpid())) for \(folders.isEmpty ? "no folder" : folders.joined(separator: ", ")); daemon socket \(options.socket); diagnostics by \(clientPulls ? "pull for open files, push for the others" : "push"); log \(options.log?.path ?? "none")"
        )
        if folders.isEmpty {
            showMessage(
                2, "reswatch: no workspace folder was given, so no file is checked. Open a folder (or a project) instead of a lone file.")
        }
        do throws(ClientError) { _ = try ReswatchClient(path: options.socket) } catch {
            // A daemon is there but this user may not use it, or it cannot be trusted: starting
            // another would not help; say why.
            switch error {
            case .accessDenied, .untrusted:
                return unavailable("reswatch: \(error) Nothing is checked.")
            default: break
            }
            guard let start = options.startDaemon else {
                return unavailable(
                    "reswatch: no daemon answers at \(options.socket), and starting one was turned off (--no-start-daemon): nothing is checked. Start one with 'reswatch daemon'."
                )
            }
            do { try start() } catch {
                return unavailable("reswatch: cannot start a daemon at \(options.socket): \(error). Nothing is checked.")
            }
            logMessage(3, "no daemon answered at \(options.socket): started one (its log: \(options.daemonLog ?? "none"))")
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
            coverage = .current
        case .watching(let watched):
            scanned.formUnion(watched)
            for folder in watched { folderProblems[folder] = nil }
            let count = findings.values.reduce(0) { $0 + $1.count }
            logMessage(3, "watching \(watched.joined(separator: ", ")): \(count) findings in \(findings.count) files of the workspace")
            requestRefresh()
        case .notWatched(let folder, let reason):
            folderProblems[folder] = reason
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
            coverage = .waiting("lost the daemon (\(reason)); reconnecting")
            scanned = []
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

    /// `textDocument/publishDiagnostics` for each file (an empty list clears a fixed file), except
    /// those a pulling client has open: it is asked to pull them again.
    func publish(_ files: Set<String>) {
        var openChanged = false
        for file in files.sorted() {
            versions[file, default: 0] += 1
            if openFiles.contains(file) {
                openChanged = true
                if published.contains(file) { sendPublish(file, []) }
                continue
            }
            let list = (findings[file] ?? []).sorted(by: Diagnostic.stableOrder)
            if list.isEmpty && !published.contains(file) { continue }
            sendPublish(file, list)
        }
        if openChanged { requestRefresh() }
    }

    func sendPublish(_ file: String, _ list: [Diagnostic]) {
        if list.isEmpty { published.remove(file) } else { published.insert(file) }
        send(
            .object([
                "jsonrpc": .string("2.0"), "method": .string("textDocument/publishDiagnostics"),
                "params": .object(["uri": .string(DocumentURI.from(path: file)), "diagnostics": .array(list.map(mapping.lsp))]),
            ]))
    }

    // MARK: - output

    func reply(id: JSONValue, result: JSONValue) {
        send(.object(["jsonrpc": .string("2.0"), "id": id, "result": result]))
    }

    func reply(error id: JSONValue, code: Int, _ message: String, data: JSONValue? = nil) {
        var error: [String: JSONValue] = ["code": .integer(Int64(code)), "message": .string(message)]
        if let data { error["data"] = data }
        send(.object(["jsonrpc": .string("2.0"), "id": id, "error": .object(error)]))
    }

    /// `window/logMessage` (the editor's LSP log: `:LspLog`, the Output panel), and the log file.
    func logMessage(_ type: Int, _ text: String) {
        options.log?.write(type: type, text)
        send(
            .object([
                "jsonrpc": .string("2.0"), "method": .string("window/logMessage"),
                "params": .object(["type": .integer(Int64(type)), "message": .string(text)]),
            ]))
    }

    /// Nothing will be checked: said to the user, and the answer to every pull.
    func unavailable(_ text: String) {
        showMessage(1, text)
        coverage = .waiting(text)
    }

    func showMessage(_ type: Int, _ text: String) {
        options.log?.write(type: type, text)
        send(
            .object([
                "jsonrpc": .string("2.0"), "method": .string("window/showMessage"),
                "params": .object(["type": .integer(Int64(type)), "message": .string(text)]),
            ]))
    }

    /// A broken byte stream: said to the editor (and on stderr), then the server stops.
    package func framingError(_ text: String) {
        options.log?.write(type: 1, "the input stream broke: \(text); stopping")
        reply(error: .null, code: -32700, "Parse error: \(text); the stream cannot be followed, the server stops")
    }
}

extension LanguageServer {
    /// True once `shutdown` was answered (an end of input is then a clean exit).
    package var isShuttingDown: Bool { shutdownRequested }
}

extension LanguageServer {
    /// A problem found before the editor connected (the log file cannot be opened): told once the
    /// session starts.
    package func warnLater(_ text: String) { pendingWarnings.append(text) }
}
