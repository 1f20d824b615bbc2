import Foundation
import ReswatchProtocol

/// The real `reswatch daemon` binary on a private socket, for tests.
public final class DaemonHarness {
    public let socket: String
    /// The user the daemon runs as when a launcher drops to another one (its clients trust it).
    public let daemonUser: String?
    public let process: Process
    public let stderrPath: String
    let dir: String

    /// Starts the daemon and waits until its socket answers `status` with every root ready.
    /// `launcher`: a command that runs the daemon (e.g. setpriv to drop to another user).
    public init(
        roots: [String], arguments: [String] = [], environment: [String: String] = [:], waitReady: Bool = true, launcher: [String] = [],
        socket chosen: String? = nil
    ) throws {
        dir = try ExampleRunnerTemp.make()
        // A launcher runs the daemon as nobody: its clients here trust that user.
        daemonUser = launcher.isEmpty ? nil : "65534"
        if let chosen {
            socket = chosen
        } else if launcher.isEmpty {
            socket = dir + "/s.sock"
        } else {
            // A launcher that drops to nobody (setpriv): the socket's folder is the daemon's own,
            // inside a folder only root can write (as systemd's /run/reswatch is).
            chmod(dir, 0o755)
            mkdir(dir + "/run", 0o700)
            chown(dir + "/run", 65534, 65534)
            socket = dir + "/run/s.sock"
        }
        stderrPath = dir + "/stderr.txt"
        process = Process()
        let command = launcher + [Repo.binary, "daemon", "--socket", socket] + arguments + roots
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = nil
        env["JOURNAL_STREAM"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let handle = FileHandle(forWritingAtPath: stderrPath)!
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        if waitReady { try waitUntilReady() }
    }

    public func waitUntilReady(seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if !process.isRunning { throw HarnessError("daemon exited (\(process.terminationStatus)): \(stderr)") }
            if let c = try? ReswatchClient(path: socket, daemonUser: daemonUser), let s = try? c.call("status", timeoutMilliseconds: 2000),
                (s["roots"]?.array ?? []).allSatisfy({ $0["state"]?.string != "scanning" })
            {
                return
            }
            usleep(20_000)
        }
        throw HarnessError("daemon did not become ready: \(stderr)")
    }

    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    public func client() throws -> ReswatchClient { try ReswatchClient(path: socket, daemonUser: daemonUser) }

    /// One call on a fresh connection.
    public func call(_ method: String, _ params: JSONValue = .object([:]), timeoutMilliseconds: Int = 30_000) throws -> JSONValue {
        try client().call(method, params, timeoutMilliseconds: timeoutMilliseconds)
    }

    public func sync() throws { _ = try call("sync", .object(["timeout_ms": .number(15_000)]), timeoutMilliseconds: 20_000) }

    /// Diagnostics as comparable lines "rule path message".
    public func diagnosticLines() throws -> [String] {
        (try call("diagnostics")["diagnostics"]?.array ?? []).map {
            "\($0["rule"]?.string ?? "") \($0["path"]?.string ?? "") \($0["message"]?.string ?? "")"
        }.sorted()
    }

    public func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    public func stop(seconds: Double = 10) -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { stop() }
        try? FileManager.default.removeItem(atPath: dir)
    }
}

public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

enum ExampleRunnerTemp {
    /// Short paths: a Unix socket path must stay under 108 bytes.
    static func make() throws -> String {
        var template = Array("/tmp/rwd.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { throw HarnessError("mkdtemp failed") }
        return String(cString: made)
    }
}

/// `reswatch check --format json` of a tree as the same comparable lines.
public func coldCheckLines(_ root: String) throws -> [String] {
    let result = try runCommand(Repo.binary, ["check", "--format", "json", root])
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let list = object?["diagnostics"] as? [[String: Any]] ?? []
    return list.map { "\($0["rule"] as? String ?? "") \($0["path"] as? String ?? "") \($0["message"] as? String ?? "")" }.sorted()
}
