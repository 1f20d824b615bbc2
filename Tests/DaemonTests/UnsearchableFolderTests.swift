import Foundation
import ReswatchProtocol
import TestSupport
import Testing

/// A watched folder that loses search permission (chmod 644: its names can still be listed, none
/// looked up) is said to be unreadable: its files do not silently count as removed, and nothing is
/// invented about it ("has no Contents.json"). When the permission comes back, so do its findings.
@Suite struct UnsearchableFolderTests {
    @Test(.enabled(if: getuid() == 0, "needs root to run the daemon as another user (setpriv)"))
    func aFolderThatLosesSearchPermissionIsUnreadableNotEmpty() throws {
        chmod(Repo.root + "/.build", 0o755)
        let set = "App/Assets.xcassets/Half.imageset"
        let tree = try TempTree([
            set + "/Contents.json": .text(#"{"images":[{"idiom":"universal","scale":"2x","filename":"a.png"}]}"#),
            set + "/a.png": .bytes([1, 2, 3]),
        ])
        chmod(tree.path, 0o755)
        let daemon = try DaemonHarness(
            roots: [tree.path], arguments: ["--settle-ms", "20"],
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        let before = try daemon.diagnosticLines()
        #expect(before.contains { $0.hasPrefix("image.not-png \(set)/a.png") }, "\(before)")

        chmod(tree.path + "/" + set, 0o644)
        try daemon.sync()
        let hidden = try daemon.diagnosticLines()
        #expect(hidden.contains { $0.hasPrefix("io.unreadable \(set) ") && $0.contains("no search permission") }, "\(hidden)")
        #expect(!hidden.contains { $0.hasPrefix("catalog.contents-missing") }, "nothing invented: \(hidden)")

        chmod(tree.path + "/" + set, 0o755)
        try daemon.sync()
        let back = try daemon.diagnosticLines()
        #expect(!back.contains { $0.hasPrefix("io.unreadable") }, "\(back)")
        #expect(back.contains { $0.hasPrefix("image.not-png \(set)/a.png") }, "its findings are back: \(back)")
    }

    /// A folder above the root losing search permission sends no event from inside the root; the
    /// next change there finds every lstat refused. The files are not gone: the root is said to be
    /// unreadable (before, the changed file counted as removed and its finding silently went).
    @Test(.enabled(if: getuid() == 0, "needs root to run the daemon as another user (setpriv)"))
    func aFolderAboveTheRootLosingSearchPermissionIsSaid() throws {
        chmod(Repo.root + "/.build", 0o755)
        let set = "Assets.xcassets/Half.imageset"
        let outer = try TempTree(["App/" + set + "/Contents.json": .text(#"{"images":[]}"#), "App/" + set + "/a.png": .bytes([1, 2, 3])])
        chmod(outer.path, 0o755)
        let root = outer.path + "/App"
        let daemon = try DaemonHarness(
            roots: [root], arguments: ["--settle-ms", "20"],
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("image.not-png \(set)/a.png") })

        chmod(outer.path, 0o700)  // owned by root: nobody can no longer reach anything below
        try Data([4, 5, 6]).write(to: URL(fileURLWithPath: root + "/" + set + "/a.png"))
        try daemon.sync()
        let hidden = try daemon.diagnosticLines()
        #expect(hidden.contains { $0.hasPrefix("io.unreadable ") }, "said, not silently dropped: \(hidden)")

        chmod(outer.path, 0o755)
        try Data([7, 8, 9]).write(to: URL(fileURLWithPath: root + "/" + set + "/a.png"))
        try daemon.sync()
        let back = try daemon.diagnosticLines()
        #expect(!back.contains { $0.hasPrefix("io.unreadable") }, "\(back)")
        #expect(back.contains { $0.hasPrefix("image.not-png \(set)/a.png") }, "back once it can be reached: \(back)")
    }
}
