import Foundation
import TestSupport
import Testing

/// A client talks only to a daemon another user cannot have planted (issue 10, item 12): the
/// socket's folder must be the user's, root's, or made in a folder only root can write, and not
/// writable by others; nothing is sent otherwise.
@Suite struct ClientTrustTests {
    /// A real daemon whose socket folder is then made to look planted.
    func status(afterMaking change: (String) -> Void) throws -> CommandResult {
        let tree = try TempTree(["A.imageset/Contents.json": .text("{\"images\":[]}")])
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        let folder = (daemon.socket as NSString).deletingLastPathComponent
        change(folder)
        defer {
            chown(folder, 0, 0)
            chmod(folder, 0o700)
        }
        return try runCommand(Repo.binary, ["status", "--socket", daemon.socket])
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give the socket's folder to another user"))
    func aFolderAnotherUserOwnsIsRefused() throws {
        let result = try status { chown($0, 65534, 65534) }
        #expect(result.status == 2 && result.stderr.contains("belongs to uid 65534"), "\(result.stderr)")
        #expect(!result.stdout.contains("generation"), "nothing was asked")
    }

    @Test func aFolderOthersCanWriteIsRefused() throws {
        let result = try status { chmod($0, 0o777) }
        #expect(result.status == 2 && result.stderr.contains("is writable by other users"), "\(result.stderr)")
    }

    @Test func ourOwnDaemonIsTrusted() throws {
        let result = try status { _ = $0 }
        #expect(result.status == 0 && result.stdout.contains("reswatch daemon: generation"), "\(result.stderr)")
    }
}

/// The peer's own uid decides (SO_PEERCRED), whatever the socket's folder looks like: a daemon
/// served by a user other than the client, root or the daemon user is refused (issue 29, item 4).
@Suite struct PeerTrustTests {
    /// A listener run as nobody in a folder only root can write (as systemd's /run/reswatch is):
    /// every folder check passes; only the peer's uid can refuse it.
    func nobodyServes(_ body: (String) throws -> Void) throws {
        let dir = try TempTree()
        chmod(dir.path, 0o755)
        mkdir(dir.path + "/run", 0o755)
        let socket = dir.path + "/run/s.sock"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        server.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
            // Answers any request with an empty result; a client that hangs up is no error.
            "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ns.listen(8)\nwhile True:\n c,_=s.accept()\n try:\n  c.recv(65536)\n  c.sendall(b'{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\\n')\n except OSError:\n  pass\n c.close()\n",
            socket,
        ]
        chown(dir.path + "/run", 65534, 65534)
        chmod(dir.path + "/run", 0o755)
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(10_000) }
        try body(socket)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to serve a socket as another user (setpriv)"))
    func aDaemonServedByAnotherUserIsRefused() throws {
        try nobodyServes { socket in
            let result = try runCommand(Repo.binary, ["status", "--socket", socket])
            #expect(result.status == 2, "\(result.stdout)")
            #expect(
                result.stderr.contains("runs as uid 65534 (nobody), not as you, root or the daemon user 'reswatch'"), "\(result.stderr)")
            #expect(result.stderr.contains("nothing was sent"))
        }
    }

    @Test(.enabled(if: getuid() == 0, "needs root to serve a socket as another user (setpriv)"))
    func theConfiguredDaemonUserIsTrusted() throws {
        try nobodyServes { socket in
            let result = try runCommand(Repo.binary, ["status", "--socket", socket], environment: ["RESWATCH_DAEMON_USER": "nobody"])
            #expect(!result.stderr.contains("refusing"), "\(result.stderr)")
        }
    }
}
