import Foundation
import ReswatchProtocol
import RuleEngine
import SystemCalls
import TestSupport
import Testing

/// Who may do what, with real users (created when the tests run as root): a member of the
/// socket group can query but not shut down; a member of the admin group can do both; anyone
/// else is told to ask for the group, not that no daemon runs; the daemon's owner can do all.
@Suite(.serialized) struct AccessRoleTests {
    static let readers = "rwtest-readers"
    static let admins = "rwtest-admins"
    static let users = ["rwtest-reader": [readers], "rwtest-admin": [readers, admins], "rwtest-other": []]

    static func ensureAccounts() throws {
        for group in [readers, admins] where UserDatabase.groupID(named: group) == nil {
            #expect(try runCommand("/usr/sbin/groupadd", [group]).status == 0)
        }
        for (user, groups) in users where (try? runCommand("/usr/bin/id", [user]))?.status != 0 {
            var args = ["--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group"]
            if !groups.isEmpty { args += ["--groups", groups.joined(separator: ",")] }
            let made = try runCommand("/usr/sbin/useradd", args + [user])
            #expect(made.status == 0, "\(made.stderr)")
        }
    }

    /// `reswatch ARGS` run as `user` (its own groups, as at login).
    func run(as user: String, _ args: [String]) throws -> CommandResult {
        try runCommand("/usr/bin/setpriv", ["--reuid=\(user)", "--regid=\(user)", "--init-groups", Repo.binary] + args)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to create the test users and groups (run the tests as root, as CI does)"))
    func rolesWithRealUsers() throws {
        try Self.ensureAccounts()
        let tree = try TempTree(["A.imageset/Contents.json": .text("{ nope")])
        chmod(tree.path, 0o755)  // others may reach the socket's folder; the folder itself decides
        let socket = tree.path + "/run/reswatch.sock"
        let daemon = try DaemonHarness(
            roots: [tree.path], arguments: ["--socket-group", Self.readers, "--admin-group", Self.admins], socket: socket)

        let folder = try FileSystem.status(tree.path + "/run")
        #expect(folder.mode & 0o777 == 0o750 && folder.group == UserDatabase.groupID(named: Self.readers))
        #expect(try FileSystem.status(socket).mode & 0o777 == 0o660)

        let reader = try run(as: "rwtest-reader", ["status", "--socket", socket, "--format", "json"])
        #expect(reader.status == 0 && reader.stdout.contains("\"roots\""), "a reader can query: \(reader.stderr)")
        let diagnostics = try run(as: "rwtest-reader", ["diagnostics", "--socket", socket])
        #expect(diagnostics.stdout.contains("catalog.contents-invalid"), "\(diagnostics.stderr)")
        #expect(try run(as: "rwtest-reader", ["sync", "--socket", socket]).status == 0, "and sync")
        let refused = try run(as: "rwtest-reader", ["shutdown", "--socket", socket])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("shutdown needs the admin role, and rwtest-reader"), "\(refused.stderr)")
        #expect(refused.stderr.contains("is a reader") && refused.stderr.contains("members of group \(Self.admins)"))
        let watch = try run(as: "rwtest-reader", ["watch", "add", "--socket", socket, "/tmp"])
        #expect(watch.status == 2 && watch.stderr.contains("watch/add needs the admin role"))

        let other = try run(as: "rwtest-other", ["status", "--socket", socket])
        #expect(other.status == 2)
        #expect(
            other.stderr.contains("not allowed to use this daemon's socket") && other.stderr.contains("group \(Self.readers)"),
            "\(other.stderr)")
        #expect(!other.stderr.contains("no reswatch daemon answers"), "a daemon runs: it is not 'no daemon'")

        let admin = try run(as: "rwtest-admin", ["recheck", "--socket", socket])
        #expect(admin.status == 0 && admin.stdout.contains("generation"), "an admin-group member may recheck: \(admin.stderr)")

        // The daemon's owner (root here) can do everything.
        #expect(try daemon.call("recheck")["generation"] != nil)
        let shutdown = try runCommand(Repo.binary, ["shutdown", "--socket", socket])
        #expect(shutdown.status == 0)
        #expect(daemon.stop() == 0)
    }

    /// Socket activation: the group of the socket systemd made (SocketGroup=) names the readers.
    @Test(.enabled(if: getuid() == 0, "needs root to create the test users and groups (run the tests as root, as CI does)"))
    func theActivatedSocketsGroupAreReaders() throws {
        try Self.ensureAccounts()
        let tree = try TempTree(["A.imageset/Contents.json": .text("{}")])
        let dir = try TempTree()
        chmod(dir.path, 0o755)
        let socket = dir.path + "/activated.sock"
        let activator = try DetachedProcess(["/usr/bin/systemd-socket-activate", "--listen=" + socket, Repo.binary, "daemon", tree.path])
        defer { activator.kill() }
        let deadline = Date().addingTimeInterval(10)
        while (try? FileSystem.status(socket)) == nil && Date() < deadline { usleep(20_000) }
        while !UnixSocket.answers(socket) && Date() < deadline { usleep(20_000) }  // bound and listening
        // What SocketMode=0660 and SocketGroup= do in a .socket unit.
        try FileSystem.changeOwner(socket, group: UserDatabase.groupID(named: Self.readers))
        try FileSystem.changeMode(socket, 0o660)

        let reader = try run(as: "rwtest-reader", ["status", "--socket", socket, "--format", "{state}"])
        // The daemon answered (its "{}" Contents.json is an error; a root still scanning would be degraded).
        #expect(
            reader.status == 0 && ["error\n", "degraded\n"].contains(reader.stdout) && reader.stderr.isEmpty,
            "a member of the socket's group is a reader: \(reader.stdout) \(reader.stderr)")
        let refused = try run(as: "rwtest-reader", ["shutdown", "--socket", socket])
        #expect(refused.stderr.contains("shutdown needs the admin role"))
        let other = try run(as: "rwtest-other", ["status", "--socket", socket])
        #expect(other.stderr.contains("ask to be added to group \(Self.readers)"), "\(other.stderr)")
        let shutdown = try runCommand(Repo.binary, ["shutdown", "--socket", socket])
        #expect(shutdown.status == 0, "\(shutdown.stderr)")
        #expect(activator.waitForExit(seconds: 15), "the daemon stops on shutdown")
    }

    /// Without socket-group the socket stays 0600 in a 0700 folder: only the owner and root.
    @Test func privateByDefault() throws {
        let tree = try TempTree(["A.imageset/Contents.json": .text("{}")])
        let daemon = try DaemonHarness(roots: [tree.path])
        #expect(try FileSystem.status(daemon.socket).mode & 0o777 == 0o600)
        #expect(try daemon.call("recheck")["generation"] != nil, "the owner is an admin")
    }

    @Test func anUnknownGroupIsRefusedAtStart() throws {
        let tree = try TempTree()
        let r = try runCommand(Repo.binary, ["daemon", "--socket", tree.path + "/s.sock", "--socket-group", "no-such-group-rw", tree.path])
        #expect(r.status == 2 && r.stderr.contains("socket-group: no group named 'no-such-group-rw'"))
    }
}
