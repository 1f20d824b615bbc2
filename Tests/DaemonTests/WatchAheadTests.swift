import Foundation
import ReswatchProtocol
import RuleKinds
import TestSupport
import Testing
import Watcher

@testable import Daemon

/// The roots a daemon starts with are watched ahead of their scans (DaemonCore+WatchAhead.swift):
/// a root whose watches were in place before its scan began (the watcher said so, or says so
/// when asked then) is not rescanned after it, and is still watched; a root whose scan begins
/// before its watches are in place is rescanned once they are; a root that cannot be watched
/// ahead is watched in its turn or not at all.
@Suite struct WatchAheadTests {
    static let set = "A.xcassets/Logo.imageset/Contents.json"
    static let deadline = 600_000

    struct Fixture {
        let trees: [TempTree]
        let watcher = FakeWatchEventSource()
        let core: DaemonCore
        let consumer: Task<Void, Never>

        /// A core started on `roots` (default: one fresh tree each), its watcher confirming each
        /// root's watches as soon as it is given.
        init(trees count: Int, roots: (([TempTree]) -> [String])? = nil, goneOnAdd: (([TempTree]) -> Set<String>)? = nil) async throws {
            trees = try (0..<count).map { _ in try TempTree([WatchAheadTests.set: .text(#"{"images":[]}"#)]) }
            var configuration = DaemonConfiguration(socketPath: trees[0].path + "/unused.sock", kinds: BuiltinKinds.registry)
            configuration.settleMilliseconds = 5
            configuration.roots = roots?(trees) ?? trees.map(\.path)
            watcher.confirmsWatches = true
            watcher.goneOnAdd = goneOnAdd?(trees) ?? []
            (core, consumer) = await DaemonCoreWatcherSeamTests.started(configuration, watcher: watcher)
        }

        func stop() async {
            await core.stop()
            await consumer.value
        }
    }

    static func followUps(_ metrics: String, _ root: String) -> String? {
        metrics.split(separator: "\n").first { $0.hasPrefix("reswatch_rescans_total{root=\"\(root)\",reason=\"watch added\"}") }.map(
            String.init)
    }

    /// Told its watches are in place while the first root is still scanned, a later root is not
    /// rescanned after its scan, and its changes are seen; told after its scan, the first root is
    /// rescanned once. The test tells the core itself, at a moment it checks, rather than through
    /// the event stream, whose consumer a loaded test process may run late.
    @Test func aRootWatchedBeforeItsScanIsNotRescannedAndStillSeesChanges() async throws {
        let first = try TempTree([:])
        try first.addImageSets(3_000)
        let later = try TempTree([Self.set: .text(#"{"images":[]}"#)])
        let watcher = FakeWatchEventSource()
        var configuration = DaemonConfiguration(socketPath: first.path + "/unused.sock", kinds: BuiltinKinds.registry)
        configuration.settleMilliseconds = 5
        configuration.roots = [first.path, later.path]
        let (core, consumer) = await DaemonCoreWatcherSeamTests.started(configuration, watcher: watcher, start: false)
        let starting = Task { await core.start() }
        while !watcher.operations.contains("add " + later.path) { try await Task.sleep(for: .milliseconds(1)) }
        await core.receive(.rescan(root: later.path, reason: .watchAdded))
        #expect(await core.status().roots.first { $0.path == first.path }?.state == .scanning, "still scanning the first root")
        await starting.value
        await core.receive(.rescan(root: first.path, reason: .watchAdded))
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        let metrics = await core.metricsText()
        #expect(Self.followUps(metrics, first.path)?.hasSuffix(" 1") == true, "\(metrics)")
        #expect(Self.followUps(metrics, later.path) == nil, "\(metrics)")
        #expect(await core.status().roots.map(\.state) == [.ready, .ready])

        try later.write([Self.set: .text("{ broken")])
        watcher.send(.changed(root: later.path, path: later.path + "/" + Self.set))
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        let found = try await core.diagnostics(root: nil, path: nil).diagnostics
        #expect(found.map(\.rule) == ["catalog.contents-invalid"] && found.first?.root == later.path)
        await core.stop()
        await consumer.value
    }

    /// Three roots of one empty asset set each, and a core started on them whose watcher places
    /// each root's watches as soon as it is added, without saying so (`prepare` sets it up first).
    static func startedOnPlacedRoots(
        _ prepare: (FakeWatchEventSource, [TempTree]) -> Void = { _, _ in }
    ) async throws -> (trees: [TempTree], watcher: FakeWatchEventSource, core: DaemonCore, consumer: Task<Void, Never>) {
        let trees = try (0..<3).map { _ in try TempTree([Self.set: .text(#"{"images":[]}"#)]) }
        let watcher = FakeWatchEventSource()
        watcher.placesWatches = true
        prepare(watcher, trees)
        var configuration = DaemonConfiguration(socketPath: trees[0].path + "/unused.sock", kinds: BuiltinKinds.registry)
        configuration.settleMilliseconds = 5
        configuration.roots = trees.map(\.path)
        let (core, consumer) = await DaemonCoreWatcherSeamTests.started(configuration, watcher: watcher)
        return (trees, watcher, core, consumer)
    }

    /// Asked just before each root's scan, the watcher says the root's watches are in place,
    /// though the core has read no word of it: no root is rescanned after its scan, not when the
    /// word comes afterwards either, and changes are seen. Exact: nothing waits on the event loop.
    @Test func rootsFoundWatchedWhenTheirScanBeginsAreNotRescannedEvenWhenTheWordComesLate() async throws {
        let (trees, watcher, core, consumer) = try await Self.startedOnPlacedRoots()
        for tree in trees { watcher.send(.rescan(root: tree.path, reason: .watchAdded)) }
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        let metrics = await core.metricsText()
        #expect(trees.allSatisfy { Self.followUps(metrics, $0.path) == nil }, "\(metrics)")
        #expect(await core.status().roots.map(\.state) == [.ready, .ready, .ready])

        try trees[2].write([Self.set: .text("{ broken")])
        watcher.send(.changed(root: trees[2].path, path: trees[2].path + "/" + Self.set))
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        let found = try await core.diagnostics(root: nil, path: nil).diagnostics
        #expect(found.map(\.rule) == ["catalog.contents-invalid"] && found.first?.root == trees[2].path)
        // A root added later is not one watched ahead: its word, when it comes, is followed.
        let added = try TempTree([Self.set: .text(#"{"images":[]}"#)])
        _ = try await core.addRoot(added.path)
        watcher.send(.rescan(root: added.path, reason: .watchAdded))
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        #expect(Self.followUps(await core.metricsText(), added.path)?.hasSuffix(" 1") == true)
        await core.stop()
        await consumer.value
    }

    /// A root found watched when its scan begins whose watches the watch limit left incomplete
    /// (the watcher publishes it degraded before it counts the watches placed): degraded with the
    /// watcher's reason once scanned, never `ready`; the others ready. The word that comes later
    /// changes neither, and the root is ready once the watcher says it recovered.
    @Test func aRootFoundWatchedButPartlyUnwatchedIsDegradedNotReady() async throws {
        let reason = "fs.inotify.max_user_watches (8192) reached: 3 folders unwatched"
        let (trees, watcher, core, consumer) = try await Self.startedOnPlacedRoots { watcher, trees in
            watcher.setDegraded(trees[1].path, reason: reason)
        }
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        func states() async -> [String] {
            await core.status().roots.sorted { $0.path < $1.path }.map { "\($0.path): \($0.state) \($0.reason ?? "-")" }
        }
        let expected = trees.enumerated().map { i, t in "\(t.path): " + (i == 1 ? "degraded \(reason)" : "ready -") }.sorted()
        #expect(await states() == expected)
        for tree in trees { watcher.send(.rescan(root: tree.path, reason: .watchAdded)) }
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        #expect(await states() == expected)
        let metrics = await core.metricsText()
        #expect(trees.allSatisfy { Self.followUps(metrics, $0.path) == nil }, "\(metrics)")
        watcher.setDegraded(trees[1].path, reason: nil)
        watcher.send(.recovered(root: trees[1].path))
        _ = try await core.sync(timeoutMilliseconds: Self.deadline)
        #expect(await core.status().roots.allSatisfy { $0.state == .ready && $0.reason == nil })
        await core.stop()
        await consumer.value
    }

    /// Roots that overlap are not watched ahead: the outer one is watched in its turn, the inner
    /// one refused, and the watcher never holds the inner one's watches.
    @Test func overlappingRootsAreWatchedInTheirTurnAndTheRefusedOneNever() async throws {
        try await confirm(trees: 1, roots: { [$0[0].path, $0[0].path + "/A.xcassets"] }) { f in
            #expect(f.watcher.watchedRoots == [f.trees[0].path])
            #expect(await f.core.rootPaths == [f.trees[0].path])
        }
    }

    /// A configured root that is not a folder is not given to the watcher at all.
    @Test func aRootThatIsNoFolderIsNeverWatched() async throws {
        try await confirm(trees: 1, roots: { [$0[0].path + "/" + Self.set, $0[0].path] }) { f in
            #expect(f.watcher.watchedRoots == [f.trees[0].path])
            #expect(await f.core.status().roots.map(\.state) == [.ready])
        }
    }

    /// A root that vanishes while it waits for its turn is never scanned, and its watches go.
    @Test func aRootGoneBeforeItsTurnLeavesNoWatch() async throws {
        let f = try await Fixture(trees: 2, goneOnAdd: { [$0[1].path] })
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        #expect(f.watcher.watchedRoots == [f.trees[0].path])
        #expect(await f.core.rootPaths == [f.trees[0].path])
        await f.stop()
    }

    /// The real daemon and inotify: of eight roots, the later ones are watched ahead of their
    /// scans (fewer follow-up rescans than roots; the watcher's thread places a few watches while
    /// the first roots' 40 sets are read), and a change in the last root, watched ahead, is seen.
    @Test func theRealDaemonWatchesItsLaterRootsAheadAndSeesTheirChanges() throws {
        let trees = try (0..<8).map { _ in try TempTree([Self.set: .text(#"{"images":[]}"#)]) }
        for tree in trees { try tree.addImageSets(40) }
        let daemon = try DaemonHarness(roots: trees.map(\.path), arguments: ["--settle-ms", "5"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        let metrics = try daemon.call("metrics")["text"]?.string ?? ""
        let followUps = trees.compactMap { Self.followUps(metrics, $0.path) }
        #expect(followUps.count < trees.count, "every root rescanned after its scan: \(followUps)")
        #expect(try daemon.diagnosticLines().isEmpty)
        try trees[7].write([Self.set: .text("{ broken")])
        try daemon.sync()
        let lines = try daemon.diagnosticLines()
        #expect(lines.count == 1 && lines[0].hasPrefix("catalog.contents-invalid"), "\(lines)")
    }

    /// Which configured roots are watched ahead: readable folders overlapping no other, on whole
    /// path segments ("/t/a" and "/t/ab" do not overlap), a root given twice not at all.
    @Test func onlyFoldersOverlappingNoOtherAreWatchedAhead() throws {
        let tree = try TempTree(["file.txt": .text("x"), "ab/x": .text("x"), "a/b/x": .text("x"), "c/x": .text("x")])
        let t = tree.path
        #expect(DaemonCore.watchableAhead([t + "/a", t + "/a/b", t + "/ab", t + "/c"]) == [t + "/ab", t + "/c"])
        #expect(DaemonCore.watchableAhead([t + "/c", t + "/c", t + "/ab"]) == [t + "/ab"])
        #expect(DaemonCore.watchableAhead(["/", t + "/c"]).isEmpty)
        #expect(DaemonCore.watchableAhead([t + "/file.txt", t + "/missing", t + "/c"]) == [t + "/c"])
        #expect(DaemonCore.ancestors(of: "/a/b/c") == ["/a/b", "/a", "/"])
        #expect(DaemonCore.ancestors(of: "/").isEmpty && DaemonCore.ancestors(of: "/a") == ["/"])
    }

    /// A configured root inside a root added before the daemon started is not watched ahead: it
    /// is refused in its turn, and the watches the outer root needs are never taken away.
    @Test func aConfiguredRootInsideARootAlreadyWatchedIsNotWatchedAhead() async throws {
        let outer = try TempTree(["a/" + Self.set: .text(#"{"images":[]}"#)])
        let watcher = FakeWatchEventSource()
        watcher.confirmsWatches = true
        var configuration = DaemonConfiguration(socketPath: outer.path + "/unused.sock", kinds: BuiltinKinds.registry)
        configuration.roots = [outer.path + "/a"]
        let (core, consumer) = await DaemonCoreWatcherSeamTests.started(configuration, watcher: watcher, start: false)
        _ = try await core.addRoot(outer.path)
        await core.start()
        #expect(watcher.operations == ["add " + outer.path], "\(watcher.operations)")
        #expect(await core.rootPaths == [outer.path])
        await core.stop()
        await consumer.value
    }

    /// A root added while the daemon starts that holds a configured root watched ahead: that
    /// root's watches go before the new root's are placed (removed after, they would take the new
    /// root's along), and it is refused in its turn.
    @Test func aRootAddedOverARootWatchedAheadTakesItsPlace() async throws {
        let first = try TempTree([:])
        try first.addImageSets(3_000)
        let outer = try TempTree(["a/" + Self.set: .text(#"{"images":[]}"#)])
        let watcher = FakeWatchEventSource()
        watcher.confirmsWatches = true
        var configuration = DaemonConfiguration(socketPath: first.path + "/unused.sock", kinds: BuiltinKinds.registry)
        configuration.roots = [first.path, outer.path + "/a"]
        let (core, consumer) = await DaemonCoreWatcherSeamTests.started(configuration, watcher: watcher, start: false)
        let starting = Task { await core.start() }
        while !watcher.operations.contains("add " + outer.path + "/a") { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await core.status().roots.first { $0.path == first.path }?.state == .scanning, "still scanning the first root")
        _ = try await core.addRoot(outer.path)
        await starting.value
        let ops = watcher.operations
        let removed = try #require(ops.firstIndex(of: "remove " + outer.path + "/a"), "\(ops)")
        let added = try #require(ops.firstIndex(of: "add " + outer.path), "\(ops)")
        #expect(removed < added, "\(ops)")
        #expect(await core.rootPaths == [first.path, outer.path].sorted())
        #expect(watcher.watchedRoots.sorted() == [first.path, outer.path].sorted())
        await core.stop()
        await consumer.value
    }

    func confirm(trees: Int, roots: @escaping ([TempTree]) -> [String], _ body: (Fixture) async throws -> Void) async throws {
        let f = try await Fixture(trees: trees, roots: roots)
        try await body(f)
        await f.stop()
    }
}
