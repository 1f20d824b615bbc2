import CSpawnShim

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended.
public enum ChildExit: Sendable, Hashable {
    case exited(Int32)
    case signaled(Int32)
    case timedOut
}

public struct ChildOutput: Sendable {
    public let exit: ChildExit
    public let stdout: [UInt8]
    public let stderr: [UInt8]
    /// stdout was longer than the limit and was cut.
    public let truncated: Bool
}

/// Runs a program (argv, no shell) with stdin bytes, collecting stdout/stderr under a deadline.
/// The channels are socket pairs created with `SOCK_CLOEXEC` (atomically), so children spawned
/// concurrently never inherit each other's ends.
public enum ChildProcess {
    public static func run(
        argv: [String], input: [UInt8], timeoutMilliseconds: Int, outputLimit: Int = 1 << 20
    ) throws(SystemError) -> ChildOutput {
        precondition(!argv.isEmpty)
        // A program that exits without reading its stdin must not kill reswatch: the write below
        // then fails with EPIPE instead (process-wide, and idempotent).
        signal(SIGPIPE, SIG_IGN)
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        _ = try retryingEINTR("socketpair", argv[0]) { socketpair(AF_UNIX, cloexecStream, 0, &stdinPipe) }
        defer { for fd in stdinPipe + stdoutPipe + stderrPipe where fd >= 0 { close(fd) } }
        _ = try retryingEINTR("socketpair", argv[0]) { socketpair(AF_UNIX, cloexecStream, 0, &stdoutPipe) }
        _ = try retryingEINTR("socketpair", argv[0]) { socketpair(AF_UNIX, cloexecStream, 0, &stderrPipe) }

        let pid = try spawn(argv, stdin: stdinPipe[0], stdout: stdoutPipe[1], stderr: stderrPipe[1])
        close(stdinPipe[0]); stdinPipe[0] = -1
        close(stdoutPipe[1]); stdoutPipe[1] = -1
        close(stderrPipe[1]); stderrPipe[1] = -1
        _ = fcntl(stdinPipe[1], F_SETFL, fcntl(stdinPipe[1], F_GETFL) | O_NONBLOCK)

        var out: [UInt8] = []
        var err: [UInt8] = []
        var written = 0
        var truncated = false
        var openOut = true
        var openErr = true
        if input.isEmpty { close(stdinPipe[1]); stdinPipe[1] = -1 }
        let deadline = monotonicMilliseconds() + Int64(timeoutMilliseconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        // The rule is done when the program exits: a background child it started may hold the
        // output open, so its end is not waited for; the group is killed once the program exits.
        var exitStatus: Int32?
        defer { kill(-pid, SIGKILL) }
        while openOut || openErr {
            if exitStatus == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
            }
            let remaining = deadline - monotonicMilliseconds()
            if remaining <= 0 {
                kill(-pid, SIGKILL)
                if exitStatus == nil { _ = reap(pid) }
                return ChildOutput(exit: exitStatus.map(exitOf) ?? .timedOut, stdout: out, stderr: err, truncated: truncated)
            }
            var fds =
                [openOut ? stdoutPipe[0] : -1, openErr ? stderrPipe[0] : -1].filter { $0 >= 0 }.map {
                    pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
                } + (stdinPipe[1] >= 0 ? [pollfd(fd: stdinPipe[1], events: Int16(POLLOUT), revents: 0)] : [])
            // After the exit, only what is already written is read (no waiting on a background child).
            let ready = poll(&fds, nfds_t(fds.count), exitStatus == nil ? Int32(min(remaining, 50)) : 0)
            if ready == 0 && exitStatus != nil { break }
            if ready < 0 {
                if errno == EINTR { continue }
                throw Self.abandon(pid, SystemError(call: "poll", path: argv[0], errno: errno))
            }
            for f in fds where f.revents != 0 {
                if f.fd == stdinPipe[1] {
                    // All written, or EPIPE (the child does not read stdin): its end is closed.
                    if !Self.feed(input, written: &written, to: f.fd) { close(stdinPipe[1]); stdinPipe[1] = -1 }
                    continue
                }
                let n = read(f.fd, &buffer, buffer.count)
                if n > 0 {
                    if f.fd == stdoutPipe[0] {
                        Self.keep(buffer[0..<n], in: &out, limit: outputLimit, truncated: &truncated)
                    } else {
                        var ignored = false
                        Self.keep(buffer[0..<n], in: &err, limit: 8192, truncated: &ignored)
                    }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    if f.fd == stdoutPipe[0] { openOut = false } else { openErr = false }
                }
            }
        }
        if stdinPipe[1] >= 0 { close(stdinPipe[1]); stdinPipe[1] = -1 }
        if let exitStatus { return ChildOutput(exit: exitOf(exitStatus), stdout: out, stderr: err, truncated: truncated) }
        return waitForExit(pid, deadline: deadline, stdout: out, stderr: err, truncated: truncated)
    }

    /// Starts `argv` with the three descriptors as its stdin, stdout and stderr, in its own
    /// process group, with default signal handling and nothing else inherited.
    private static func spawn(_ argv: [String], stdin: Int32, stdout: Int32, stderr: Int32) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // Nothing else is inherited: not the daemon's listening socket, inotify or epoll fds, nor
        // client connections (a descriptor opened without CLOEXEC anywhere in the process).
        _ = rw_spawn_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // reswatch ignores SIGPIPE; the child gets default signal handling and an empty mask.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // Its own process group: whatever it starts (`sleep 120 &`) is killed with it.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        cArgs.append(nil)
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, environ)
        if spawned != 0 { throw SystemError(call: "posix_spawn", path: argv[0], errno: spawned) }
        return pid
    }

    /// Output is closed; the child has exited or is about to. Waits for it, still under the deadline.
    private static func waitForExit(_ pid: pid_t, deadline: Int64, stdout out: [UInt8], stderr err: [UInt8], truncated: Bool)
        -> ChildOutput
    {
        while true {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return ChildOutput(exit: exitOf(status), stdout: out, stderr: err, truncated: truncated) }
            if r < 0 && errno != EINTR { return ChildOutput(exit: .exited(-1), stdout: out, stderr: err, truncated: truncated) }
            if monotonicMilliseconds() >= deadline {
                kill(pid, SIGKILL)
                _ = reap(pid)
                return ChildOutput(exit: .timedOut, stdout: out, stderr: err, truncated: truncated)
            }
            usleep(1000)
        }
    }

    /// Kills and reaps the child after `error`, which is returned to be thrown.
    private static func abandon(_ pid: pid_t, _ error: SystemError) -> SystemError {
        kill(pid, SIGKILL)
        _ = reap(pid)
        return error
    }

    /// Writes more of `input`; false once it is all written or the child stopped reading.
    private static func feed(_ input: [UInt8], written: inout Int, to fd: Int32) -> Bool {
        let n = input.withUnsafeBytes { write(fd, $0.baseAddress! + written, input.count - written) }
        if n > 0 { written += n }
        return !(n < 0 && errno != EAGAIN && errno != EINTR || written == input.count)
    }

    /// Appends what fits under `limit`; `truncated` once something did not.
    private static func keep(_ chunk: ArraySlice<UInt8>, in output: inout [UInt8], limit: Int, truncated: inout Bool) {
        if output.count < limit { output += chunk.prefix(limit - output.count) }
        if output.count >= limit { truncated = truncated || output.count + chunk.count > limit }
    }

    private static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    private static func exitOf(_ status: Int32) -> ChildExit {
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(signal)
    }

    private static let cloexecStream = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

    static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
