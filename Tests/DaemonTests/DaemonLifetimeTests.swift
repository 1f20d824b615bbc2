import Foundation
import ReswatchProtocol
import SystemCalls
import TestSupport
import Testing

/// A daemon started on demand does not outlive its editor forever: with `--idle-exit` it exits
/// once no client has been connected for that long, and `status` says how it was started, where
/// its log is and when it exits. One started by hand (no `--idle-exit`) stays (issue 29, item 2).
@Suite struct DaemonLifetimeTests {
    /// Waits for the process to end; false if it is still running at the deadline.
    func exits(_ process: Process, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        return !process.isRunning
    }

    @Test func anIdleDaemonExitsAndAClientKeepsItAlive() throws {
        let tree = try TempTree(["A.imageset/Contents.json": .text(#"{"images":[]}"#)])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--idle-exit", "1"])
        defer { _ = daemon.stop() }
        let status = try daemon.call("status")
        #expect(status["started_by"]?.string == "by hand" && status["idle_exit_s"]?.int == 1)
        #expect(status["log"]?.string == FileSystem.realPath(daemon.stderrPath), "its stderr is a file: \(status)")
        // A connection held open for three idle periods keeps it running; it closes at the end
        // of this scope.
        do {
            let held = try daemon.client()
            _ = try held.call(StatusRequest.self)
            usleep(3_000_000)
            #expect(daemon.process.isRunning, "a client is connected")
        }
        #expect(exits(daemon.process, within: 120), "no client for a second: it exits by itself")
        #expect(daemon.process.terminationStatus == 0)
        #expect(daemon.stderr.contains("no client for 1 s (idle-exit): exiting"))
    }

    @Test func aDaemonStartedByHandStays() throws {
        let tree = try TempTree()
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        usleep(1_500_000)
        #expect(daemon.process.isRunning)
        let status = try daemon.call("status")
        #expect(status["idle_exit_s"] == nil || status["idle_exit_s"] == .null)
        let text = try runCommand(Repo.binary, ["status", "--socket", daemon.socket]).stdout
        #expect(text.contains("  started by hand; its log: "), "\(text)")
    }

    @Test func theDaemonAnEditorStartsLogsToTheStateFolderAndExitsAfterIt() throws {
        let home = try TempTree()
        let tree = try TempTree(["A.imageset/Contents.json": .text(#"{"images":[]}"#)])
        let socket = home.path + "/run/reswatch.sock"
        let env = ["HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "PATH": "/usr/bin:/bin"]
        let lsp = try LSPClient(arguments: ["--socket", socket, "--daemon-idle-exit", "2"], environment: env)
        _ = lsp.start(folders: [tree.path])
        // The daemon it started answers, and says who started it and where it logs.
        let deadline = Date().addingTimeInterval(60)
        var status: StatusResult?
        while status == nil && Date() < deadline {
            status = try? ReswatchClient(path: socket).call(StatusRequest.self)
            if status == nil { usleep(100_000) }
        }
        let started = try #require(status)
        #expect(started.startedBy == "on demand by reswatch lsp" && started.idleExitSeconds == 2)
        #expect(started.log == home.path + "/state/reswatch/daemon.log")
        #expect(FileManager.default.fileExists(atPath: home.path + "/state/reswatch/daemon.log"))
        _ = lsp.request("shutdown")
        lsp.notify("exit")
        #expect(lsp.exitStatus() == 0)
        // With its editor gone, nothing is connected: it exits.
        let gone = Date().addingTimeInterval(120)
        while UnixSocket.answers(socket) && Date() < gone { usleep(200_000) }
        #expect(!UnixSocket.answers(socket), "the on-demand daemon exited after its editor")
    }
}
