import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A bare Unix-socket client for tests that misbehave on purpose (pipelining without reading,
/// partial lines, going silent): no framing, no JSON, only bytes and the kernel's answers.
public final class RawSocketClient {
    public let fd: Int32

    public init(path: String) throws {
        do { fd = try UnixSocket.connect(path) } catch { throw HarnessError("connect \(path): \(error.reason)") }
    }

    deinit { close(fd) }

    /// Writes as much of `bytes` as the socket takes within `waitMilliseconds` of it accepting
    /// nothing more; returns the number written.
    public func sendWithoutBlocking(_ bytes: [UInt8], waitMilliseconds: Int32 = 1000) -> Int {
        var sent = 0
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while sent < bytes.count {
            guard poll(&pfd, 1, waitMilliseconds) == 1 else { break }
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else if errno != EAGAIN && errno != EINTR { break }
        }
        return sent
    }

    /// Closes the sending side (as `socat` does after its last line); replies still come.
    public func halfClose() { shutdown(fd, Int32(SHUT_WR)) }

    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return sendWithoutBlocking(bytes, waitMilliseconds: 5000) == bytes.count
    }

    /// Reads until `done` says the bytes so far suffice, the peer closes, or nothing comes for
    /// `quietMilliseconds`. `closed` tells whether the peer closed the connection.
    public func receive(quietMilliseconds: Int32 = 5000, until done: ([UInt8]) -> Bool = { _ in false }) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while !done(received), poll(&pfd, 1, quietMilliseconds) == 1 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return (received, true) }
            if n < 0 { return (received, errno == ECONNRESET) }
            received += buffer[0..<n]
        }
        return (received, false)
    }

    /// Reads whole lines until `count` have arrived (or nothing comes for `quietMilliseconds`).
    public func receiveLines(_ count: Int, quietMilliseconds: Int32 = 10_000) -> [String] {
        var lines = 0
        var scanned = 0
        let (bytes, _) = receive(quietMilliseconds: quietMilliseconds) { bytes in
            for b in bytes[scanned...] where b == 0x0A { lines += 1 }
            scanned = bytes.count
            return lines >= count
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// Resident memory of a process in bytes (VmRSS of /proc/PID/status).
public func residentBytes(pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    let kb = line.split(separator: " ").compactMap { Int($0) }.first
    return kb.map { $0 * 1024 }
}

/// A datagram socket bound at `path` (a stand-in for journald or systemd's NOTIFY_SOCKET).
public func boundDatagramSocket(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    guard path.utf8.count <= UnixSocket.maximumPathLength else { throw HarnessError("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else {
        let code = errno
        close(fd)
        throw HarnessError("bind \(path): errno \(code)")
    }
    return fd
}
