import Findings
import Foundation
import ReswatchProtocol
import SystemCalls

/// What the daemon connection tells the language server, in order.
enum DaemonEvent: Sendable {
    /// Connected and subscribed: the full set of findings.
    case snapshot([Diagnostic])
    case changed(added: [Diagnostic], removed: [Diagnostic])
    /// A message for the user (window/showMessage): type 1 error, 2 warning, 3 info.
    case message(type: Int, text: String)
    /// The connection ended: findings can no longer be kept current.
    case lost(String)
    /// The daemon watches these workspace folders (it has scanned them): their findings are complete.
    case watching([String])
    /// The daemon cannot watch this folder: nothing in it is checked.
    case notWatched(folder: String, reason: String)
}

/// The language server's connection to a daemon: on its own thread (the client blocks), it adds
/// the workspace folders as roots, subscribes, and hands every notification on in order.
final class DaemonLink: @unchecked Sendable {
    let socket: String
    let events: AsyncStream<DaemonEvent>
    private let continuation: AsyncStream<DaemonEvent>.Continuation
    // Guarded by `lock`, set from the server's actor, read on the link's thread: every workspace
    // folder (added again after a reconnect: a restarted daemon knows none of them), and those
    // added since the link last looked.
    private let lock = NSLock()
    private var folders: [String] = []
    private var added: [String] = []

    init(socket: String) {
        self.socket = socket
        (events, continuation) = AsyncStream.makeStream(of: DaemonEvent.self)
    }

    /// The workspace folders changed: roots the daemon does not cover yet are added. Removed
    /// folders are not unwatched (the daemon may serve other editors), only no longer re-added.
    func update(added new: [String], removed: Set<String>) {
        lock.withLock {
            folders = folders.filter { !removed.contains($0) } + new.filter { !folders.contains($0) }
            added += new
        }
    }

    /// Connects (the daemon must answer), adds the folders, subscribes; then reads notifications
    /// until the connection ends.
    func start(folders initial: [String]) {
        lock.withLock { folders = initial }
        let thread = Thread { [self] in
            ThreadName.setCurrent("rw-lsp-daemon")  // Foundation's Thread.name, set before start, named nothing
            run()
        }
        thread.start()
    }

    /// Reconnects every 2 s after the connection is lost (a restarted daemon is picked up). The
    /// loss is said once, not at every failed attempt.
    private func run() {
        var connected = true  // the server checked that the daemon answers before starting the link
        while true {
            switch connectAndRead() {
            case .none: connected = true
            case .some(let reason):
                if connected { continuation.yield(.lost(reason)) }
                connected = false
            }
            Thread.sleep(forTimeInterval: 2)
        }
    }

    /// Returns why the connection ended, or could not be made.
    private func connectAndRead() -> String? {
        do throws(ClientError) {
            let client = try ReswatchClient(path: socket)
            let adder = try ReswatchClient(path: socket)  // watch/add waits for a scan: not on the reading connection
            let snapshot = try client.call(SubscribeRequest.self, SeverityParams(minimumSeverity: .info))
            continuation.yield(.snapshot(snapshot.diagnostics))
            let all = lock.withLock { () -> [String] in
                added = []
                return folders
            }
            add(all, with: adder, reader: client)
            while true {
                let more = lock.withLock { () -> [String] in
                    defer { added = [] }
                    return added
                }
                if !more.isEmpty { add(more, with: adder, reader: client) }
                for message in client.drainNotifications() { forward(message) }
                guard let message = try client.readMessage(timeoutMilliseconds: 500) else { continue }
                forward(message)
            }
        } catch {
            return error.description
        }
    }

    /// Adds the folders the daemon does not watch yet (each call returns after the folder's scan),
    /// then reads, on the subscription, every notification sent before a reply to a round trip:
    /// the scan's findings are in hand when `.watching` says the folders are covered.
    private func add(_ folders: [String], with client: ReswatchClient, reader: ReswatchClient) {
        var watched = (try? client.call(WatchListRequest.self).roots) ?? []
        var covered: [String] = []
        // Outer folders first: a nested one is then covered (the daemon refuses overlapping roots).
        for folder in folders.sorted(by: { $0.utf8.count < $1.utf8.count }) {
            if watched.contains(where: { folder == $0 || folder.hasPrefix($0 == "/" ? "/" : $0 + "/") }) {
                covered.append(folder)
                continue
            }
            do {
                _ = try client.call(WatchAddRequest.self, PathParams(path: folder), timeoutMilliseconds: 600_000)
                covered.append(folder)
                watched.append(folder)  // a folder inside it (nested workspace folders) is covered now
            } catch {
                continuation.yield(.message(type: 1, text: "reswatch cannot watch \(folder): \(error). Its files are not checked."))
                continuation.yield(.notWatched(folder: folder, reason: "\(error)"))
            }
        }
        guard !covered.isEmpty, waitForScans(of: covered, with: client) else { return }
        if (try? reader.call(WatchListRequest.self)) != nil {
            for message in reader.drainNotifications() { forward(message) }
            continuation.yield(.watching(covered))
        }
    }

    /// A folder in a root the daemon is still scanning (its own start, or another editor's
    /// `watch/add`) is not covered until that scan ends: `watch/list` names such a root, and
    /// `watch/add` returns at once for it, before its findings exist. Waits while `status` says
    /// `scanning` for a root that holds or lies in one of `folders`; false when that did not end.
    private func waitForScans(of folders: [String], with client: ReswatchClient) -> Bool {
        let deadline = Date().addingTimeInterval(600)
        while true {
            guard let status = try? client.call(StatusRequest.self) else { return false }
            let scanning = status.roots.filter { root in
                root.state == .scanning && folders.contains { DiagnosticsCoverage.overlaps(root.path, $0) }
            }
            guard let first = scanning.first else { return true }
            guard Date() < deadline else {
                continuation.yield(
                    .message(type: 2, text: "reswatch: the daemon is still scanning \(first.path); its files are not checked yet."))
                return false
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private func forward(_ message: JSONValue) {
        switch message["method"]?.string {
        case RPCNotification.diagnosticsChanged.rawValue?:
            if let change = try? message["params"]?.decode(DiagnosticsChange.self) {
                continuation.yield(.changed(added: change.added, removed: change.removed))
            }
        case RPCNotification.resync.rawValue?:
            if let snapshot = try? message["params"]?.decode(DiagnosticsSnapshot.self) {
                continuation.yield(.snapshot(snapshot.diagnostics))
            }
        default: break
        }
    }
}
