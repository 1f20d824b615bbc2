import Foundation
import SystemCalls

/// Why a client call failed.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    case noDaemon(path: String, reason: String)
    /// The socket is not one only this user or root could have made: nothing was sent.
    case untrusted(path: String, reason: String)
    case io(String)
    case rpc(RPCError)
    case timeout(String)
    case closed

    public var description: String {
        switch self {
        case .noDaemon(let path, let reason):
            "no reswatch daemon answers at \(path) (\(reason)). Start one with 'reswatch daemon ROOT', or point RESWATCH_SOCKET / --socket at its socket."
        case .untrusted(let path, let reason):
            "refusing to talk to \(path): \(reason); another user could be serving it. Use a socket in a folder only you (or root) can write (XDG_RUNTIME_DIR, --socket)."
        case .io(let s): "socket error: \(s)"
        case .rpc(let e): "daemon replied: \(e.message) (\(e.code))"
        case .timeout(let s): "timed out \(s)"
        case .closed: "the daemon closed the connection"
        }
    }
}

/// `struct ucred` (pid, uid, gid: 12 bytes), which glibc declares only under _GNU_SOURCE.
struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// A blocking JSON-RPC client over the daemon's Unix socket (used by the command-line clients,
/// the tests and the benchmarks). One line per message.
public final class ReswatchClient {
    let fd: Int32
    var buffer: [UInt8] = []
    var nextID = 1
    /// Notifications received while waiting for a response.
    public private(set) var pendingNotifications: [JSONValue] = []

    public init(path: String) throws(ClientError) {
        let allowedPeers = try Self.checkOwnership(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .io(String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= SocketLocation.maximumLength else {
            close(fd)
            throw .noDaemon(path: path, reason: "path longer than \(SocketLocation.maximumLength) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .noDaemon(path: path, reason: reason)
        }
        // The peer must run as this user, root, or the socket folder's owner (SO_PEERCRED).
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        if getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .untrusted(path: path, reason: "the peer's credentials cannot be read (\(reason))")
        }
        if !allowedPeers.contains(credentials.uid) {
            close(fd)
            throw .untrusted(path: path, reason: "the process serving it runs as uid \(credentials.uid)")
        }
        self.fd = fd
    }

    /// Before anything is sent, the socket's folder must be one that another user cannot have
    /// planted: it belongs to this user or root, or it sits in a folder that only root can write
    /// (systemd's /run/reswatch, owned by the service user); and no one else can write it (a sticky
    /// world-writable folder such as /tmp only for a socket of our own). Returns the uids the
    /// peer may run as: this user, root, and the folder's owner.
    static func checkOwnership(_ path: String) throws(ClientError) -> Set<uid_t> {
        let me = getuid()
        let folder = (path as NSString).deletingLastPathComponent
        var dir = stat()
        guard lstat(folder.isEmpty ? "." : folder, &dir) == 0 else { return [me, 0] }  // connect will say why
        if (dir.st_mode & S_IFMT) != S_IFDIR {
            throw .untrusted(path: path, reason: "\(folder) is not a directory (a link?)")
        }
        var parent = stat()
        let parentPath = (folder as NSString).deletingLastPathComponent
        let placedByRoot =
            lstat(parentPath.isEmpty ? "/" : parentPath, &parent) == 0 && parent.st_uid == 0 && parent.st_mode & (S_IWGRP | S_IWOTH) == 0
        if dir.st_uid != me && dir.st_uid != 0 && !placedByRoot {
            throw .untrusted(path: path, reason: "its folder \(folder) belongs to uid \(dir.st_uid)")
        }
        if dir.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            var sock = stat()
            if lstat(path, &sock) != 0 { return [me, 0] }  // no socket there: connect says no daemon answers
            guard dir.st_mode & S_ISVTX != 0, sock.st_uid == me || sock.st_uid == 0 else {
                throw .untrusted(path: path, reason: "its folder \(folder) is writable by other users")
            }
        }
        return [me, 0, dir.st_uid]
    }

    deinit { close(fd) }

    /// Sends raw bytes (tests use it for malformed input).
    public func send(raw: [UInt8]) throws(ClientError) {
        var sent = 0
        while sent < raw.count {
            let n = raw.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(String(cString: strerror(errno)))
            }
            sent += n
        }
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
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(remaining, Int(Int32.max))))
            if r < 0 {
                if errno == EINTR { continue }
                throw .io(String(cString: strerror(errno)))
            }
            if r == 0 { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { throw .closed }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .io(String(cString: strerror(errno)))
            }
            buffer += chunk[0..<n]
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

    /// Calls a method and waits for its response; notifications that arrive meanwhile are kept.
    public func call(_ method: String, _ params: JSONValue = .object([:]), timeoutMilliseconds: Int = 30_000) throws(ClientError)
        -> JSONValue
    {
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
