import Foundation
import ImageFacts
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

/// Signals, sd_notify, the socket's safety checks and the JSON log, on the real binary.
@Suite(.serialized) struct LifecycleTests {
    static func tree() throws -> TempTree {
        try TempTree([
            "P/A.imageset/Contents.json": .text("{\"images\":[]}"), "P/A.imageset/x.png": .png(PNGSpec(width: 4, height: 4, color: .gray)),
        ])
    }

    @Test func sigtermStopsGracefullyAndRemovesTheSocket() throws {
        let tree = try Self.tree()
        let daemon = try DaemonHarness(roots: [tree.path])
        #expect(FileManager.default.fileExists(atPath: daemon.socket))
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    /// A datagram socket standing in for systemd's NOTIFY_SOCKET.
    final class NotifyReceiver {
        let path: String
        let fd: Int32
        init() throws {
            path = "/tmp/rwn-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
            fd = try boundDatagramSocket(path)
        }
        deinit {
            close(fd)
            unlink(path)
        }
        func next(timeoutMilliseconds: Int32 = 10_000) -> String? {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, timeoutMilliseconds) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }
        func waitFor(_ prefix: String, timeoutMilliseconds: Int32 = 10_000) -> [String] {
            var seen: [String] = []
            while let m = next(timeoutMilliseconds: timeoutMilliseconds) {
                seen.append(m)
                if m.hasPrefix(prefix) || m.contains("\n" + prefix) { return seen }
            }
            return seen
        }
    }

    @Test func notifiesReadyOnlyAfterTheInitialScanThenWatchdogAndStopping() throws {
        let receiver = try NotifyReceiver()
        let tree = try Self.tree()
        let daemon = try DaemonHarness(
            roots: [tree.path], environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "400000"], waitReady: false)
        let messages = receiver.waitFor("READY=1")
        let ready = try #require(messages.last, "no READY=1 datagram: \(daemon.stderr)")
        #expect(ready.hasPrefix("READY=1"))
        #expect(ready.contains("STATUS=watching 1 root"))
        // At the moment READY=1 arrives the root is scanned and the socket answers.
        let status = try daemon.call("status")
        #expect(status["roots"]?.array?.first?["state"]?.string == "ready" && status["roots"]?.array?.first?["files"]?.int == 2)
        #expect(receiver.waitFor("WATCHDOG=1").last == "WATCHDOG=1")
        daemon.signal(SIGHUP)
        #expect(receiver.waitFor("RELOADING=1").last?.contains("MONOTONIC_USEC=") == true)
        daemon.signal(SIGTERM)
        #expect(receiver.waitFor("STOPPING=1").last == "STOPPING=1")
        daemon.stop()
    }

    @Test func ruleModulesReloadOnChangeAndOnSighupAndKeepTheLastGoodVersion() throws {
        let rules = try TempTree([
            "team.yaml": .text(
                "rules:\n  - kind: exec\n    argv: [/bin/echo, '{\"diagnostics\":[{\"rule\":\"team.a\",\"message\":\"a\"}]}']\n    subjects: [project]\n    rules: [{id: team.a}]\n"
            )
        ])
        let tree = try Self.tree()
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--rules", rules.path])
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("team.a") })

        // Editing the module reloads it (the rule directories are watched too).
        try rules.write([
            "team.yaml": .text(
                "rules:\n  - kind: exec\n    argv: [/bin/echo, '{\"diagnostics\":[{\"rule\":\"team.b\",\"message\":\"b\"}]}']\n    subjects: [project]\n    rules: [{id: team.b}]\n"
            )
        ])
        var lines: [String] = []
        for _ in 0..<100 where !(lines.contains { $0.hasPrefix("team.b") }) {
            usleep(50_000)
            lines = try daemon.diagnosticLines()
        }
        #expect(lines.contains { $0.hasPrefix("team.b") } && !lines.contains { $0.hasPrefix("team.a") })

        // A broken edit keeps the last good version and is reported in status.
        try rules.write(["team.yaml": .text("rules:\n  - kind: exec\n    argv: [unclosed\n")])
        var errors: [JSONValue] = []
        for _ in 0..<100 where errors.isEmpty {
            usleep(50_000)
            errors = try daemon.call("status")["rule_errors"]?.array ?? []
        }
        #expect(errors.first?["file"]?.string?.hasSuffix("team.yaml") == true)
        #expect(errors.first?["message"]?.string?.contains("last good version") == true)
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("team.b") })
        #expect(daemon.process.isRunning)

        // SIGHUP reloads too.
        daemon.signal(SIGHUP)
        for _ in 0..<100 where !daemon.stderr.contains("reloading rule modules (SIGHUP)") { usleep(20_000) }
        #expect(daemon.stderr.contains("reloading rule modules (SIGHUP)"))
    }

    @Test func refusesASecondDaemonAndReplacesAStaleSocket() throws {
        let tree = try Self.tree()
        let first = try DaemonHarness(roots: [tree.path])
        let second = try runCommand(Repo.binary, ["daemon", "--socket", first.socket, tree.path])
        #expect(second.status == 2 && second.stderr.contains("another reswatch daemon already answers at \(first.socket)"))
        // A socket file left by a killed daemon is stale: the next daemon takes its place.
        first.signal(SIGKILL)
        first.process.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: first.socket))
        let third = Process()
        third.executableURL = URL(fileURLWithPath: Repo.binary)
        third.arguments = ["daemon", "--socket", first.socket, tree.path]
        third.standardError = FileHandle.nullDevice
        try third.run()
        defer {
            third.terminate()
            third.waitUntilExit()
        }
        var answered = false
        for _ in 0..<200 where !answered {
            usleep(20_000)
            answered = (try? ReswatchClient(path: first.socket).call("status", timeoutMilliseconds: 1000)) != nil
        }
        #expect(answered)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to create a directory owned by someone else"))
    func refusesASocketDirectoryOwnedBySomeoneElse() throws {
        let dir = "/tmp/rwo-\(getpid())"
        mkdir(dir, 0o777)
        chown(dir, 65534, 65534)
        defer { rmdir(dir) }
        let result = try runCommand(Repo.binary, ["daemon", "--socket", dir + "/s.sock"])
        #expect(result.status == 2 && result.stderr.contains("belongs to uid 65534"))
    }

    @Test func socketAndDirectoryPermissions() throws {
        let base = "/tmp/rwp-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let daemon = try DaemonHarness(roots: [], arguments: [], environment: ["RESWATCH_SOCKET": base + "/sub/s.sock"], waitReady: false)
        // --socket from the harness wins over RESWATCH_SOCKET; check the harness socket's mode.
        try daemon.waitUntilReady()
        var st = stat()
        stat(daemon.socket, &st)
        #expect(st.st_mode & 0o777 == 0o600)
        // RESWATCH_SOCKET alone: the directory is created 0700.
        let viaEnv = Process()
        viaEnv.executableURL = URL(fileURLWithPath: Repo.binary)
        viaEnv.arguments = ["daemon"]
        viaEnv.environment = ProcessInfo.processInfo.environment.merging(["RESWATCH_SOCKET": base + "/s.sock"]) { _, b in b }
        viaEnv.standardError = FileHandle.nullDevice
        mkdir(base, 0o700)
        try viaEnv.run()
        defer {
            viaEnv.terminate()
            viaEnv.waitUntilExit()
        }
        var ok = false
        for _ in 0..<200 where !ok {
            usleep(20_000)
            ok = (try? runCommand(Repo.binary, ["status"], environment: ["RESWATCH_SOCKET": base + "/s.sock"]).status) == 0
        }
        #expect(ok, "clients find the daemon through RESWATCH_SOCKET")
    }

    @Test func clientsSayClearlyWhenNoDaemonAnswers() throws {
        let result = try runCommand(Repo.binary, ["status", "--socket", "/tmp/no-such-reswatch.sock"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no reswatch daemon answers at /tmp/no-such-reswatch.sock"))
    }

    @Test func jsonLogRecordsChangesAndIsReopenedOnSigusr1() throws {
        let tree = try Self.tree()
        let logDir = try TempTree()
        let log = logDir.path + "/events.jsonl"
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--log-file", log])
        try tree.write(["P/A.imageset/x.png": .png(PNGSpec(width: 4, height: 4))])
        try daemon.sync()
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.count == lines.count, "every line is a JSON object")
        #expect(events.contains { $0["event"] as? String == "diagnostic.added" && $0["rule"] as? String == "image.not-rgb" })
        #expect(events.contains { $0["event"] as? String == "diagnostic.removed" && $0["rule"] as? String == "image.not-rgb" })
        #expect(events.contains { $0["event"] as? String == "state" && $0["state"] as? String == "ready" })
        // logrotate: move the file away, SIGUSR1, and the daemon writes a new one.
        try FileManager.default.moveItem(atPath: log, toPath: log + ".1")
        daemon.signal(SIGUSR1)
        for _ in 0..<100 where !daemon.stderr.contains("reopened the log file") { usleep(20_000) }
        try tree.write(["P/A.imageset/x.png": .png(PNGSpec(width: 4, height: 4, color: .gray))])
        try daemon.sync()
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("diagnostic.added"))
    }

    @Test func journaldGetsPriorityPrefixes() throws {
        let tree = try Self.tree()
        let daemon = try DaemonHarness(roots: [tree.path], environment: ["JOURNAL_STREAM": "8:1234"])
        daemon.stop()
        #expect(daemon.stderr.contains("<6>watching "))
        #expect(!daemon.stderr.contains(" INFO "))
    }
}
