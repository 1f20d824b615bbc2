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
