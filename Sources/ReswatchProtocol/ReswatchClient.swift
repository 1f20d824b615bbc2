import Foundation
import SystemCalls

/// Why a client call failed.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    case noDaemon(path: String, reason: String)
    /// The socket exists but this user may not open it (EACCES): a daemon is there, for others.
    case accessDenied(path: String, group: String?)
    /// The socket is not one only this user or root could have made: nothing was sent.
    case untrusted(path: String, reason: String)
    /// The process serving the socket runs as a user the client does not trust: nothing was sent.
    case untrustedPeer(path: String, peer: String, daemonUser: String)
    case io(String)
    case rpc(RPCError)
    case timeout(String)
    case closed

    /// One line for a terminal: the socket's path (an argument) and the daemon's message (which
    /// names paths from watched trees) are shown escaped, as findings are (`FileName.display`).
    public var description: String {
        switch self {
        case .noDaemon(let path, let reason):
            "no reswatch daemon answers at \(FileName.display(path)) (\(reason)). Start one with 'reswatch daemon ROOT', or point RESWATCH_SOCKET / --socket at its socket."
        case .accessDenied(let path, let group):
            "you are not allowed to use this daemon's socket at \(FileName.display(path)) (permission denied): "
                + (group.map { "ask to be added to group \($0)" } ?? "ask its owner for access (the daemon's socket-group setting)")
        case .untrusted(let path, let reason):
            "refusing to talk to \(FileName.display(path)): \(reason); another user could be serving it. Use a socket in a folder only you (or root) can write (XDG_RUNTIME_DIR, --socket)."
        case .untrustedPeer(let path, let peer, let daemonUser):
            "refusing to talk to \(FileName.display(path)): the daemon serving it runs as \(peer), not as you, root or the daemon user '\(daemonUser)'; nothing was sent. If you trust it, set RESWATCH_DAEMON_USER to its user."
        case .io(let s): "socket error: \(FileName.display(s))"
        case .rpc(let e): "daemon replied: \(FileName.display(e.message)) (\(e.code))"
        case .timeout(let s): "timed out \(s)"
        case .closed: "the daemon closed the connection"
        }
    }
}

/// A blocking JSON-RPC client over the daemon's Unix socket (used by the command-line clients,
/// the tests and the benchmarks). One line per message.
public final class ReswatchClient {
    let fd: Int32
    var buffer: [UInt8] = []
    var nextID = 1
    /// Notifications received while waiting for a response.
    public private(set) var pendingNotifications: [JSONValue] = []

    /// `daemonUser`: the user a shared daemon may run as besides this user and root (default
    /// `$RESWATCH_DAEMON_USER`, else `reswatch`).
    public init(path: String, daemonUser: String? = nil) throws(ClientError) {
        try Self.checkOwnership(path)
        guard FileName.bytes(of: path).count <= SocketLocation.maximumLength else {
            throw .noDaemon(path: path, reason: "path longer than \(SocketLocation.maximumLength) bytes")
        }
        let fd: Int32
        do { fd = try UnixSocket.connect(path) } catch {
            if error.errno == EACCES { throw .accessDenied(path: path, group: Self.accessGroup(path)) }
            throw .noDaemon(path: path, reason: error.reason)
        }
        // The peer must run as this user, root, or the socket folder's owner (SO_PEERCRED).
        let peer: UInt32
        do { peer = try UnixSocket.peerUID(fd, path: path) } catch {
            UnixSocket.close(fd)
            throw .untrusted(path: path, reason: "the peer's credentials cannot be read (\(error.reason))")
        }
        let user = daemonUser ?? SocketLocation.daemonUser(environment: ProcessEnvironment.current())
        let me = FileSystem.currentUser
        if peer != me && peer != 0 && peer != UserDatabase.userID(named: user) {
            UnixSocket.close(fd)
            let who = UserDatabase.userName(peer).map { "uid \(peer) (\($0))" } ?? "uid \(peer)"
            throw .untrustedPeer(path: path, peer: who, daemonUser: user)
        }
        self.fd = fd
    }

    /// Before anything is sent, the socket's folder must be one that another user cannot have
    /// planted: it belongs to this user or root, or it sits in a folder that only root can write
    /// (systemd's /run/reswatch, owned by the service user); and no one else can write it (a sticky
    /// world-writable folder such as /tmp only for a socket of our own). Then the peer itself
    /// must run as this user, root or the daemon user (`init`).
    static func checkOwnership(_ path: String) throws(ClientError) {
        let me = FileSystem.currentUser
        let folder = (path as NSString).deletingLastPathComponent
        guard let dir = try? FileSystem.status(folder.isEmpty ? "." : folder) else { return }  // connect will say why
        if dir.kind != .directory {
            throw .untrusted(path: path, reason: "\(folder) is not a directory (a link?)")
        }
        let parentPath = (folder as NSString).deletingLastPathComponent
        let parent = try? FileSystem.status(parentPath.isEmpty ? "/" : parentPath)
        let placedByRoot = parent.map { $0.owner == 0 && $0.mode & UInt32(S_IWGRP | S_IWOTH) == 0 } ?? false
        if dir.owner != me && dir.owner != 0 && !placedByRoot {
            throw .untrusted(path: path, reason: "its folder \(folder) belongs to uid \(dir.owner)")
        }
        if dir.mode & UInt32(S_IWGRP | S_IWOTH) != 0 {
            guard let sock = try? FileSystem.status(path) else { return }  // no socket there: connect says no daemon answers
            guard dir.mode & UInt32(S_ISVTX) != 0, sock.owner == me || sock.owner == 0 else {
                throw .untrusted(path: path, reason: "its folder \(folder) is writable by other users")
            }
        }
    }

    /// The group that may open the socket: the socket's, or its folder's when the folder is the
    /// one that refuses.
    static func accessGroup(_ path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let gid = (try? FileSystem.status(path))?.group ?? (try? FileSystem.status(folder))?.group
        return gid.flatMap { $0 == 0 ? nil : (UserDatabase.groupName($0) ?? String($0)) }
    }

    deinit { UnixSocket.close(fd) }

    /// Sends raw bytes (tests use it for malformed input).
    public func send(raw: [UInt8]) throws(ClientError) {
        do { try UnixSocket.send(fd, raw, path: "the daemon's socket") } catch { throw .io(error.reason) }
    }

    /// Reads one line (without the newline); nil on timeout.
    public func readLine(timeoutMilliseconds: Int) throws(ClientError) -> [UInt8]? {
        let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                return line
            }
            let remaining = Int(exactly: (deadline.timeIntervalSinceNow * 1000).rounded(.down)) ?? 0
            if remaining <= 0 { return nil }
            let chunk: [UInt8]?
            do { chunk = try UnixSocket.receive(fd, timeoutMilliseconds: remaining, path: "the daemon's socket") } catch {
                throw .io(error.reason)
            }
            guard let chunk else { continue }  // the deadline decides
            if chunk.isEmpty { throw .closed }
            buffer += chunk
        }
    }

    /// Reads the next JSON message; nil on timeout.
    public func readMessage(timeoutMilliseconds: Int) throws(ClientError) -> JSONValue? {
        guard let line = try readLine(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line)) else {
            throw .io("the daemon sent a line that is not JSON")
        }
        return value
    }

    /// Calls a request of the protocol with its typed params and decodes its typed response.
    public func call<R: ReswatchRequest>(_ request: R.Type, _ params: R.Params, timeoutMilliseconds: Int = 30_000) throws(ClientError)
        -> R.Response
    {
        let result = try call(R.method, encoding: params, timeoutMilliseconds: timeoutMilliseconds)
        do { return try result.decode(R.Response.self) } catch {
            throw .io("the daemon's reply to \(R.method) does not have the documented shape (\(error))")
        }
    }

    /// The same, for a request that takes no params.
    public func call<R: ReswatchRequest>(_ request: R.Type, timeoutMilliseconds: Int = 30_000) throws(ClientError) -> R.Response
    where R.Params == NoParams {
        try call(request, NoParams(), timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Calls a method by name with raw params (tests use it for methods and params the protocol
    /// does not define); notifications that arrive meanwhile are kept.
    public func call(_ method: String, _ params: JSONValue = .object([:]), timeoutMilliseconds: Int = 30_000) throws(ClientError)
        -> JSONValue
    {
        try call(method, encoding: params, timeoutMilliseconds: timeoutMilliseconds)
    }

    func call(_ method: String, encoding params: some Encodable, timeoutMilliseconds: Int) throws(ClientError) -> JSONValue {
        let id = nextID
        nextID += 1
        try send(raw: RPCEncoder.request(id: id, method: method, params: params))
        let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
        while true {
            let remaining = Int(exactly: (deadline.timeIntervalSinceNow * 1000).rounded(.down)) ?? 0
            guard remaining > 0, let message = try readMessage(timeoutMilliseconds: remaining) else {
                throw .timeout("waiting \(timeoutMilliseconds) ms for the reply to \(method)")
            }
            if message["id"]?.int == id {
                if let error = message["error"], let decoded = try? error.decode(RPCError.self) { throw .rpc(decoded) }
                return message["result"] ?? .null
            }
            if message["method"] != nil { pendingNotifications.append(message) }
        }
    }

    /// Takes the notifications collected so far.
    public func drainNotifications() -> [JSONValue] {
        defer { pendingNotifications = [] }
        return pendingNotifications
    }
}
