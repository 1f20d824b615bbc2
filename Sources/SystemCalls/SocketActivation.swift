#if canImport(Glibc)
    import Glibc
#endif

/// systemd socket activation (sd_listen_fds(3)): the listening socket handed over in
/// `LISTEN_FDS`/`LISTEN_PID`/`LISTEN_FDNAMES`, from descriptor 3 on.
public enum SocketActivation {
    public struct Listener: Sendable, Equatable {
        public let descriptor: Int32
        /// The path the socket is bound to ("@name" for the abstract namespace).
        public let path: String
    }

    public struct ActivationError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    static let firstDescriptor: Int32 = 3

    /// The listening Unix stream socket passed by systemd, or nil when none was passed (the
    /// variables are absent or meant for another process). With several, the one named
    /// `reswatch` (FileDescriptorName=), else the first. The variables are removed so that
    /// children (exec rules) do not see them; the other descriptors are closed.
    public static func listener(environment: [String: String]) throws(ActivationError) -> Listener? {
        guard let pidText = environment["LISTEN_PID"], let fdsText = environment["LISTEN_FDS"] else { return nil }
        guard let pid = Int32(pidText), pid == getpid() else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        guard let count = Int32(fdsText), count >= 1, count <= 64 else {
            throw ActivationError(description: "LISTEN_FDS=\(fdsText.prefix(32)): expected 1…64 descriptors from systemd")
        }
        let names = environment["LISTEN_FDNAMES"]?.split(separator: ":", omittingEmptySubsequences: false).map(String.init) ?? []
        let index = names.firstIndex(of: "reswatch").map { Int32($0) } ?? 0
        guard index < count else { throw ActivationError(description: "LISTEN_FDNAMES names more sockets than LISTEN_FDS passes") }
        let fd = firstDescriptor + index
        for other in firstDescriptor..<(firstDescriptor + count) where other != fd { close(other) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return Listener(descriptor: fd, path: try check(fd))
    }

    /// The descriptor must be a listening Unix stream socket; returns its path.
    static func check(_ fd: Int32) throws(ActivationError) -> String {
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard let type = option(SO_TYPE), type == Int32(SOCK_STREAM.rawValue) else {
            throw ActivationError(description: "descriptor \(fd) from systemd is not a stream socket (ListenStream= in the .socket unit)")
        }
        guard option(SO_ACCEPTCONN) == 1 else { throw ActivationError(description: "descriptor \(fd) from systemd is not listening") }
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0, address.sun_family == sa_family_t(AF_UNIX) else {
            throw ActivationError(description: "descriptor \(fd) from systemd is not a Unix socket (ListenStream=/run/…)")
        }
        let pathLength = Int(length) - MemoryLayout<sa_family_t>.size
        let bytes = withUnsafeBytes(of: address.sun_path) { Array($0.prefix(max(pathLength, 0))) }
        if bytes.first == 0 { return "@" + FileName.decode(Array(bytes.dropFirst())) }
        return FileName.decode(Array(bytes.prefix { $0 != 0 }))
    }
}
