import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Watcher

/// The watcher against the real kernel: real files, real inotify, real libinotifytools.
@Suite(.serialized) struct InotifyWatcherTests {
    /// Collects events until `until` holds or the deadline passes.
    final class Collector: Sendable {
        let seen = Mutex<[WatchEvent]>([])
        init(_ watcher: InotifyWatcher) {
            // Ends when the watcher stops and finishes its stream.
            Task { [self] in for await e in watcher.events { seen.withLock { $0.append(e) } } }
        }
        func wait(seconds: Double = 5, until: ([WatchEvent]) -> Bool) async -> [WatchEvent] {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let snapshot = seen.withLock { $0 }
                if until(snapshot) { return snapshot }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return seen.withLock { $0 }
        }
        var changedPaths: Set<String> {
            Set(seen.withLock { $0 }.compactMap { if case .changed(_, let p) = $0 { return p } else { return nil } })
        }
    }

    func started(_ root: String) async -> (InotifyWatcher, Collector) {
        let w = InotifyWatcher(excludes: [".git", "build"])
        let c = Collector(w)
        w.start()
        w.add(root: root)
        _ = await c.wait { $0.contains(.rescan(root: root, reason: .watchAdded)) }
        return (w, c)
    }

    @Test func reportsWritesCreatesDeletesAndRenames() async throws {
        let tree = try TempTree(["a/x.png": .text("1")])
        let (w, c) = await started(tree.path)
        defer { w.stop() }
        try tree.write(["a/x.png": .text("2"), "a/new.png": .text("n")])
        try tree.move("a/new.png", "a/renamed.png")
        try tree.remove("a/x.png")
        let want: Set<String> = ["a/x.png", "a/new.png", "a/renamed.png"].map { tree.path + "/" + $0 }.reduce(into: []) { $0.insert($1) }
        _ = await c.wait { _ in want.isSubset(of: c.changedPaths) }
        #expect(want.isSubset(of: c.changedPaths), "\(c.changedPaths)")
    }

    @Test func newDirectoriesAreWatchedAtOnce() async throws {
        let tree = try TempTree(["keep.txt": .text("")])
        let (w, c) = await started(tree.path)
        defer { w.stop() }
        try FileManager.default.createDirectory(atPath: tree.path + "/n/m", withIntermediateDirectories: true)
        _ = await c.wait { _ in c.changedPaths.contains(tree.path + "/n") }
        try await Task.sleep(for: .milliseconds(50))
        try tree.write(["n/m/later.png": .text("x")])
        _ = await c.wait { _ in c.changedPaths.contains(tree.path + "/n/m/later.png") }
        #expect(c.changedPaths.contains(tree.path + "/n/m/later.png"), "a file in a directory created after start is seen")
        #expect(w.watchCount == 3)
    }

    /// A link to a folder (in the tree or out of it) is not watched through: only real folders
    /// get watches, and the engine does not follow such links either.
    @Test func aLinkToAFolderIsNotWatchedThrough() async throws {
        let tree = try TempTree(["real/a.png": .text("1")])
        let outside = try TempTree(["o/b.png": .text("1")])
        #expect(symlink(outside.path + "/o", tree.path + "/linked") == 0)
        #expect(symlink("real", tree.path + "/alias") == 0)
        let (w, c) = await started(tree.path)
        defer { w.stop() }
        #expect(w.watchCount == 2, "the root and real/, not the links")
        try outside.write(["o/b.png": .text("2")])
        try tree.write(["real/a.png": .text("2")])
        _ = await c.wait { _ in c.changedPaths.contains(tree.path + "/real/a.png") }
        #expect(c.changedPaths.contains(tree.path + "/real/a.png"))
        #expect(!c.changedPaths.contains { $0.hasPrefix(tree.path + "/linked/") || $0.hasPrefix(tree.path + "/alias/") })
    }

    @Test func renamedDirectoriesKeepReportingUnderTheirNewName() async throws {
        let tree = try TempTree(["d/sub/f.png": .text("1")])
        let (w, c) = await started(tree.path)
        defer { w.stop() }
        try tree.move("d", "e")
        _ = await c.wait { _ in c.changedPaths.contains(tree.path + "/e") }
        try tree.write(["e/sub/f.png": .text("2")])
        _ = await c.wait { _ in c.changedPaths.contains(tree.path + "/e/sub/f.png") }
        #expect(c.changedPaths.contains(tree.path + "/e/sub/f.png"))
        #expect(!c.changedPaths.contains(tree.path + "/d/sub/f.png"))
    }

    @Test func directoriesMovedOutStopReporting() async throws {
        let tree = try TempTree(["in/d/f.png": .text("1")])
        let outside = try TempTree()
        let (w, c) = await started(tree.path + "/in")
        defer { w.stop() }
        try FileManager.default.moveItem(atPath: tree.path + "/in/d", toPath: outside.path + "/d")
        _ = await c.wait { _ in c.changedPaths.contains(tree.path + "/in/d") }
        try await Task.sleep(for: .milliseconds(1200))  // the unpaired MOVED_FROM is settled on the next timeout
        #expect(w.watchCount == 1, "only the root is still watched")
        try Data("2".utf8).write(to: URL(fileURLWithPath: outside.path + "/d/f.png"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(!c.changedPaths.contains { $0.hasPrefix(outside.path) })
    }

    @Test func excludedDirectoriesAreNotWatched() async throws {
        let tree = try TempTree(["build/x.png": .text("1"), "src/y.png": .text("1")])
        let (w, _) = await started(tree.path)
        defer { w.stop() }
        #expect(w.watchCount == 2)  // root and src
    }

    /// Whether a root's watches are in place is known before the watcher says so (the daemon asks
    /// just before a root's first scan), and stops being true as soon as the root's removal is
    /// asked, before the thread has carried it out.
    @Test func aRootsWatchesArePlacedBeforeTheWordAndNotOnceItsRemovalIsAsked() async throws {
        let tree = try TempTree(["a/x.png": .text("1")])
        let w = InotifyWatcher(excludes: [])
        let c = Collector(w)
        defer { w.stop() }
        w.start()
        #expect(!w.watchesPlaced(tree.path), "never added")
        w.add(root: tree.path)
        let word = WatchEvent.rescan(root: tree.path, reason: .watchAdded)
        #expect(await c.wait { $0.contains(word) }.contains(word))
        #expect(w.watchesPlaced(tree.path), "placed before the word was sent")
        w.remove(root: tree.path)
        #expect(!w.watchesPlaced(tree.path), "its removal is asked")
        w.add(root: tree.path)
        #expect(await c.wait { $0.count { $0 == word } == 2 }.count { $0 == word } == 2)
        #expect(w.watchesPlaced(tree.path), "added again")
        try tree.write(["a/x.png": .text("2")])
        _ = await c.wait { _ in c.changedPaths.contains(tree.path + "/a/x.png") }
        #expect(c.changedPaths.contains(tree.path + "/a/x.png"), "and watched")
    }

    /// The bookkeeping behind `watchesPlaced`, step by step as the thread carries commands out
    /// (the thread is not started here): a removal asked while the thread is still placing the
    /// root's watches leaves the root not placed when that add finishes.
    @Test func aRemovalAskedWhileTheAddIsCarriedOutLeavesTheRootNotPlaced() {
        let w = InotifyWatcher(excludes: [])
        defer { w.stop() }
        w.add(root: "/r")
        #expect(!w.watchesPlaced("/r"), "asked, not carried out")
        w.remove(root: "/r")
        w.carriedOut("/r", placed: true)  // the add, taken by the thread before the removal was asked
        #expect(!w.watchesPlaced("/r"), "its removal is still to be carried out")
        w.carriedOut("/r", placed: false)
        #expect(!w.watchesPlaced("/r"))
        w.add(root: "/r")
        w.carriedOut("/r", placed: true)
        #expect(w.watchesPlaced("/r") && !w.watchesPlaced("/other"))
    }

    /// The daemon's shutdown and its stream's end may both stop the watcher: the second call
    /// returned never (the first had taken the thread's only "ended" signal).
    @Test(.timeLimit(.minutes(1))) func stoppingTwiceReturnsBothTimes() async throws {
        let tree = try TempTree(["a.png": .text("1")])
        let (w, _) = await started(tree.path)
        w.stop()
        w.stop()
        #expect(!w.barrier(1), "a stopped watcher takes no barrier")
    }

    @Test func readsTheRealQueueLimit() {
        #expect((InotifyWatcher.maxQueuedEvents() ?? 0) > 0)
    }
}
