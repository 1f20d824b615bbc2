import Foundation
import ReswatchProtocol
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// `sync` is a barrier that never writes into a watched root (issue 10 items 2 and 10, issue 14
/// item 2): it works with many roots and with roots the daemon may not write.
@Suite(.serialized) struct SyncBarrierTests {
    static let brokenSet = "A.xcassets/Logo.imageset/Contents.json"

    /// Roots with a valid set; after start, each gets a broken Contents.json, then one sync.
    func syncSeesEveryRoot(count: Int, launcher: [String] = []) throws {
        var trees: [TempTree] = []
        for _ in 0..<count { trees.append(try TempTree([Self.brokenSet: .text("{\"images\":[]}")])) }
        if !launcher.isEmpty { for t in trees { chmod(t.path, 0o755) } }
        let daemon = try DaemonHarness(roots: trees.map(\.path), launcher: launcher)
        defer { _ = daemon.stop() }
        let before = Set(trees.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? [] })
        // inotify on each root's top folder: a file created and removed during sync is seen too.
        let watch = inotify_init1(Int32(IN_NONBLOCK))
        defer { close(watch) }
        for t in trees { #expect(inotify_add_watch(watch, t.path, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0) }
        for t in trees { try t.write([Self.brokenSet: .text("{ broken")]) }
        try daemon.sync()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let read = Glibc.read(watch, &buffer, buffer.count)
        #expect(read <= 0, "sync created \(read) bytes of inotify events (IN_CREATE/IN_MOVED_TO) in the roots")
        let lines = try daemon.diagnosticLines().filter { $0.hasPrefix("catalog.contents-invalid") }
        #expect(lines.count == count, "every root's change is applied before sync returns (\(lines.count) of \(count))")
        let after = Set(trees.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? [] })
        #expect(after == before, "nothing was created in a root: \(after.subtracting(before))")
    }

    @Test(arguments: [1, 3, 100]) func syncWithManyRoots(_ count: Int) throws { try syncSeesEveryRoot(count: count) }

    @Test(.enabled(if: getuid() == 0, "needs root to run the daemon as another user (setpriv)"))
    func syncWithRootsTheDaemonCannotWrite() throws {
        chmod(Repo.root + "/.build", 0o755)
        // The daemon runs as nobody; the roots belong to root (0755): it can read but not write them.
        try syncSeesEveryRoot(count: 3, launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    }

    @Test func theDaemonLeavesNoPrivateFolderBehind() throws {
        let tmp = try TempTree()
        let tree = try TempTree([Self.brokenSet: .text("{\"images\":[]}")])
        let daemon = try DaemonHarness(roots: [tree.path], environment: ["TMPDIR": tmp.path])
        try daemon.sync()
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).count == 1, "its private folder while it runs")
        #expect(daemon.stop() == 0)
        let left = FileManager.default.enumerator(atPath: tmp.path)?.allObjects ?? []
        #expect(left.isEmpty, "removed on SIGTERM: \(left)")
    }
}

/// A daemon given only roots it cannot watch says so and does not start (issue 10, item 13).
@Suite struct UnwatchableRootsTests {
    @Test func noWatchableRootIsExitTwo() throws {
        let dir = try TempTree()
        let result = try runCommand(Repo.binary, ["daemon", "--socket", dir.path + "/s.sock", "/nonexistent/a", "/nonexistent/b"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot watch /nonexistent/a: no such directory"))
        #expect(result.stderr.contains("none of the roots can be watched"))
    }
}

/// The real daemon and inotify on a tree 1,500 folders deep: moved in, then removed with `rm -rf`
/// (1,500 deletions reported bottom-up, and a watch-table compaction). Before, the engine spent
/// minutes on the removal and every `sync` timed out behind it.
@Suite struct DeepTreeDaemonTests {
    @Test func aDeepTreeComesAndGoesAndSyncStillAnswers() throws {
        let root = try TempTree([:])
        let outside = try TempTree([:])
        var path = outside.path + "/x"
        for _ in 0..<1_500 { path += "/d" }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path + "/Icon.png", contents: Data()))
        let daemon = try DaemonHarness(roots: [root.path])
        defer { _ = daemon.stop() }
        try FileManager.default.moveItem(atPath: outside.path + "/x", toPath: root.path + "/x")
        try daemon.sync()
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("image.not-png") })
        try FileManager.default.removeItem(atPath: root.path + "/x")
        try daemon.sync()
        #expect(try daemon.diagnosticLines().isEmpty, "the removed tree's finding is gone")
        // The watcher still sees the root after the compaction.
        #expect(FileManager.default.createFile(atPath: root.path + "/Icon.png", contents: Data()))
        try daemon.sync()
        #expect(try daemon.diagnosticLines().count == 1)
    }
}

/// `recheck` scans a root afresh in a daemon whose index has lived through changes (node ids
/// reused, a tree that shrank). Before, the old subject ids were read against the new index:
/// an out-of-range trap that took the daemon down.
@Suite struct RecheckAfterChangesTests {
    @Test func recheckAfterMostOfTheTreeWentAway() throws {
        var files: [String: ExampleFile] = [:]
        for i in 0..<300 { files["A.xcassets/Img\(i).imageset/Contents.json"] = .text("{\"images\":[]}") }
        files["A.xcassets/Zed.imageset/Contents.json"] = .text("{ broken")
        let tree = try TempTree(files)
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        for i in 0..<300 { try FileManager.default.removeItem(atPath: tree.path + "/A.xcassets/Img\(i).imageset") }
        try daemon.sync()
        _ = try daemon.call("recheck")
        try daemon.sync()
        let lines = try daemon.diagnosticLines()
        #expect(lines.contains { $0.hasPrefix("catalog.contents-invalid") }, "\(lines)")
        #expect(try daemon.call("status")["roots"]?.array?.first?["files"]?.int == 1)
    }
}
