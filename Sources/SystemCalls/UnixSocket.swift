#if canImport(Glibc)
    import Glibc
#endif

/// Unix-domain sockets as the daemon's clients and its systemd notifications use them, and the
/// daemon's listening socket bound (SwiftNIO listens on it and serves it). A path is its bytes
/// (`FileName`), as a file's name is: SwiftNIO's own bind took a path's UTF-8, so a socket path
/// that is not UTF-8 was bound under other bytes than the ones a client dials.
public enum UnixSocket {
    /// Longest socket path (`sun_path` holds 108 bytes with the terminating NUL).
    public static let maximumPathLength = 107

    /// A connected stream socket (close-on-exec). The caller closes it with `close(_:)`.
    public static func connect(_ path: String) throws(SystemError) -> Int32 {
        try streamSocket(at: path, call: "connect") { Glibc.connect($0, $1, $2) }
    }

    /// A stream socket (close-on-exec) bound at `path`, not yet listening: the caller hands it to
    /// SwiftNIO (`withBoundSocket`), which listens.
    public static func bound(_ path: String) throws(SystemError) -> Int32 {
        try streamSocket(at: path, call: "bind") { Glibc.bind($0, $1, $2) }
    }

    /// A new stream socket given to `call` (connect or bind) with `path`'s address; closed if it fails.
    private static func streamSocket(
        at path: String, call: String, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(SystemError) -> Int32 {
        let fd = try retryingEINTR("socket", path) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            var (address, length) = try Self.address(path, call: call)
            _ = try retryingEINTR(call, path) {
                withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(fd, $0, length) } }
            }
            return fd
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Whether a process accepts connections at `path`.
    public static func answers(_ path: String) -> Bool {
        guard let fd = try? connect(path) else { return false }
        close(fd)
        return true
    }

    /// The uid of the process at the other end of a connected socket (SO_PEERCRED).
    public static func peerUID(_ fd: Int32, path: String) throws(SystemError) -> UInt32 {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        _ = try retryingEINTR("getsockopt(SO_PEERCRED)", path) { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
        return credentials.uid
    }

    /// Sends one datagram to `path` ("@name" is Linux's abstract namespace, as in NOTIFY_SOCKET).
    public static func sendDatagram(_ payload: [UInt8], to path: String) throws(SystemError) {
        let fd = try retryingEINTR("socket", path) { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { Glibc.close(fd) }
        var (address, length) = try Self.address(path)
        let sent = try retryingEINTR("sendto", path) {
            withUnsafePointer(to: &address) { a in
                a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    payload.withUnsafeBytes { Glibc.sendto(fd, $0.baseAddress, payload.count, Int32(MSG_NOSIGNAL), sa, length) }
                }
            }
        }
        if sent != payload.count { throw SystemError(call: "sendto", path: path, errno: EMSGSIZE) }
    }

    public static func close(_ fd: Int32) { Glibc.close(fd) }

    /// Sends all of `bytes` (no SIGPIPE: a closed peer is EPIPE).
    public static func send(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        var sent = 0
        while sent < bytes.count {
            sent += try retryingEINTR("send", path) {
                bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Waits up to `timeoutMilliseconds` for data and reads what is there: nil when nothing came,
    /// [] when the peer closed the connection.
    public static func receive(_ fd: Int32, timeoutMilliseconds: Int, path: String) throws(SystemError) -> [UInt8]? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = try retryingEINTR("poll", path) { poll(&p, 1, Int32(clamping: max(0, timeoutMilliseconds))) }
        if ready == 0 { return nil }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n >= 0 { return Array(chunk[0..<n]) }
            if Glibc.errno == EINTR { continue }
            if Glibc.errno == EAGAIN { return nil }
            throw SystemError(call: "recv", path: path, errno: Glibc.errno)
        }
    }

    static func address(_ path: String, call: String = "connect") throws(SystemError) -> (sockaddr_un, socklen_t) {
        var bytes = FileName.bytes(of: path)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        guard !bytes.isEmpty, bytes.count <= maximumPathLength else {
            throw SystemError(
                call: call, path: path, errno: ENAMETOOLONG, detail: "socket path longer than \(maximumPathLength) bytes")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        return (address, length)
    }
}

/// `struct ucred` (glibc declares it only under _GNU_SOURCE): what SO_PEERCRED reads.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32 = 0
    public var uid: UInt32 = 0
    public var gid: UInt32 = 0
    public init() {}
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
    /// SOL_SOCKET and SO_PEERCRED, for a socket API that reads options by number (SwiftNIO).
    public static let optionLevel = SOL_SOCKET
    public static let optionName = SO_PEERCRED
}
