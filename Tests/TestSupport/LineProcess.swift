import Foundation

/// A running command whose output is read line by line as it comes (for `--follow` modes and
/// servers over stdio): each read waits at most its timeout.
public final class LineProcess {
    public let process = Process()
    let output = Pipe()
    public let input = Pipe()
    lazy var reader = PipeReader(output.fileHandleForReading.fileDescriptor)

    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    /// SIGTERM, then SIGKILL if it has not exited within 5 s.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The next line without its newline; nil when none came within the timeout or output ended.
    public func nextLine(timeoutSeconds: Double = 20) -> String? {
        reader.next(timeoutSeconds: timeoutSeconds) { buffer in
            guard let nl = buffer.firstIndex(of: 0x0A) else { return nil }
            defer { buffer.removeSubrange(...nl) }
            return String(decoding: buffer[..<nl], as: UTF8.self)
        }
    }

    /// Reads lines until one satisfies `match`; returns it (nil on timeout).
    public func line(where match: (String) -> Bool, timeoutSeconds: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while let line = nextLine(timeoutSeconds: max(deadline.timeIntervalSinceNow, 0.01)) {
            if match(line) { return line }
        }
        return nil
    }
}

/// A process started through the shell, detached from Foundation's `Process`: for programs that
/// exec another program later (systemd-socket-activate execs the daemon on the first
/// connection), which Foundation takes for an exit and then blocks every other `Process` while it
/// waits for it.
public struct DetachedProcess {
    public let pid: Int32

    public init(_ arguments: [String]) throws {
        let started = try runCommand("/bin/sh", ["-c", "\"$@\" </dev/null >/dev/null 2>&1 & echo $!", "sh"] + arguments)
        guard let pid = Int32(started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("could not start \(arguments): \(started.stderr)")
        }
        self.pid = pid
    }

    /// Whether it still runs (a zombie, not yet reaped by init, counts as ended).
    public var isRunning: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true)
    }

    /// Waits up to `seconds` for it to end; true when it did.
    public func waitForExit(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(20_000) }
        return !isRunning
    }

    public func kill() { _ = Glibc.kill(pid, SIGKILL) }
}

/// Reads a pipe as it fills and hands out whole messages (a line, a framed LSP message): each
/// `next` waits at most its timeout.
final class PipeReader {
    let fd: Int32
    var buffer: [UInt8] = []

    init(_ fd: Int32) { self.fd = fd }

    /// The next message `take` can cut from the front of the buffer; nil on timeout or end of output.
    func next<T>(timeoutSeconds: Double, _ take: (inout [UInt8]) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if let message = take(&buffer) { return message }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(min(remaining, 1) * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer += chunk[..<n]
        }
    }
}
