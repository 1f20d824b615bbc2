import Foundation
import ReswatchProtocol
import RuleEngine
import SystemCalls
import TestSupport
import Testing

/// Socket activation with the real `systemd-socket-activate` (Debian `systemd`, installed by
/// `make test`): the first connection starts the daemon and is answered, and the socket systemd
/// made is still there after the daemon stops (it starts the next one).
@Suite(.serialized) struct SocketActivationTests {
    static let activate = "/usr/bin/systemd-socket-activate"

    @Test func theFirstConnectionStartsTheDaemonAndIsAnswered() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.activate), "systemd-socket-activate: make test installs systemd")
        let tree = try TempTree(["A.imageset/Contents.json": .text("{ nope")])
        let dir = try TempTree()
        let socket = dir.path + "/activated.sock"
        // Not Foundation's Process: the activator execs the daemon later, which Process mistakes for an exit.
        let process = try DetachedProcess([Self.activate, "--listen=" + socket, "--fdname=reswatch", Repo.binary, "daemon", tree.path])
        defer { process.kill() }
        // The socket file appears at bind(), before listen(): a refused connect starts nothing, so
        // retry until one is accepted. Nothing runs yet but the activator; that connection starts
        // the daemon.
        let deadline = Date().addingTimeInterval(20)
        var accepted: ReswatchClient?
        while accepted == nil && Date() < deadline {
            accepted = try? ReswatchClient(path: socket)
            if accepted == nil { usleep(20_000) }
        }
        let client = try #require(accepted, "systemd-socket-activate never listened at \(socket)")
        var status = try client.call(StatusRequest.self, timeoutMilliseconds: 30_000)
        #expect(status.socket == socket, "the daemon knows the socket it was given")
        #expect(status.roots.map(\.path) == [tree.path])
        // A root in its first scan does not hold `sync` up (docs/protocol.md): its findings are
        // there once `status` says it is ready.
        let ready = Date().addingTimeInterval(120)
        while status.roots.contains(where: { $0.state == .scanning }) && Date() < ready {
            usleep(10_000)
            status = try client.call(StatusRequest.self, timeoutMilliseconds: 30_000)
        }
        _ = try client.call(SyncRequest.self, SyncParams(timeoutMilliseconds: 10_000))
        let found = try client.call(DiagnosticsRequest.self, DiagnosticsParams())
        #expect(found.diagnostics.map(\.rule) == ["catalog.contents-invalid"])

        _ = try client.call(ShutdownRequest.self)
        #expect(process.waitForExit(seconds: 15), "the daemon stops on shutdown")
        #expect(try FileSystem.status(socket).kind == .other, "a socket the daemon did not create is left in place")
    }

    /// LISTEN_FDS meant for another process is ignored; one for us that is not a listening
    /// socket is an error that says so (exit 2).
    @Test func activationVariablesAreChecked() throws {
        let tree = try TempTree()
        let dir = try TempTree()
        let other = try runCommand(
            "/bin/sh",
            [
                "-c",
                "LISTEN_PID=1 LISTEN_FDS=1 exec \"$0\" daemon --socket \"$1\" \"$2\" & pid=$!; sleep 2; \"$0\" shutdown --socket \"$1\"; wait $pid",
                Repo.binary, dir.path + "/own.sock", tree.path,
            ])
        #expect(other.status == 0 && other.stdout.contains("shutting down"), "\(other.stderr)")
        let bad = try runCommand(
            "/bin/sh", ["-c", "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\" daemon \"$1\" 3</dev/null", Repo.binary, tree.path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("socket activation: descriptor 3 from systemd is not a stream socket"), "\(bad.stderr)")
    }
}
