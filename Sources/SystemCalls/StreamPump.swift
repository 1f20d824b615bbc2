#if canImport(Glibc)
    import Glibc
#endif

/// Standard input and output that epoll cannot watch (a regular file, `/dev/null`: `reswatch lsp
/// > file`) are bridged through a pipe, with a thread copying the bytes: an event loop can then
/// use the pipe's end. Pipes and sockets are used as they are.
package enum StreamPump {
    /// Whether epoll can watch `fd` (a pipe or a socket; a file or a character device not always).
    package static func isPollable(_ fd: Int32) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return false }
        let kind = st.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }

    /// A descriptor to read `fd`'s bytes from: `fd` itself, or a pipe a thread fills from it.
    package static func readable(_ fd: Int32) throws(SystemError) -> Int32 {
        if isPollable(fd) { return fd }
        let (read, write) = try pipe()
        detached {
            copy(from: fd, to: write)
            close(write)  // the reader sees the end of input
        }
        return read
    }

    /// A descriptor to write what goes to `fd`: `fd` itself, or a pipe a thread drains into it;
    /// with the copying thread, which `Copier.finish()` waits for once the descriptor is closed
    /// (the last bytes reach the file before the process exits).
    package static func writable(_ fd: Int32) throws(SystemError) -> (fd: Int32, copier: Copier?) {
        if isPollable(fd) { return (fd, nil) }
        let (read, write) = try pipe()
        let copier = Copier {
            copy(from: read, to: fd)
            close(read)
        }
        return (write, copier)
    }

    /// A thread copying bytes, which can be waited for.
    package final class Copier: @unchecked Sendable {
        // Written once in init, read once by finish(): the thread's handle.
        private var thread = pthread_t()
        private let started: Bool

        init(_ body: @escaping @Sendable () -> Void) {
            let job = Unmanaged.passRetained(Job(body)).toOpaque()
            started = pthread_create(&thread, nil, Job.run, job) == 0
            if !started { Unmanaged<Job>.fromOpaque(job).takeRetainedValue().body() }
        }

        /// Waits until everything written to the descriptor (now closed) has been copied.
        package func finish() { if started { pthread_join(thread, nil) } }
    }

    final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        static let run: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { argument in
            Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }
    }

    /// A connected pair (a socket pair: made close-on-exec atomically, unlike glibc's pipe()).
    static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = try retryingEINTR("socketpair", "stdio") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        }
        return (fds[0], fds[1])
    }

    /// Copies until end of input or an error.
    static func copy(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        outer: while true {
            let n = read(source, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { break outer }
                written += w
            }
        }
    }

    /// Runs `body` on a thread of its own (a blocking copy must not hold a pool thread).
    static func detached(_ body: @escaping @Sendable () -> Void) {
        final class Job {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, job)
        if started == 0 { pthread_detach(thread) } else { Unmanaged<Job>.fromOpaque(job).takeRetainedValue().body() }
    }
}
