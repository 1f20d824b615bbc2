import Daemon
import Foundation
import Logging
import ReswatchProtocol
import RuleEngine
import RuleKinds
import Synchronization
import TestSupport
import Testing
import Watcher

/// The daemon core against a scripted watcher (`FakeWatchEventSource`): settling, sync barriers,
/// overflow and recrawl, without inotify. The real-binary tests (SyncBarrierTests,
/// OverflowTests, …) stay the outer ring.
@Suite struct DaemonCoreWatcherSeamTests {
    static let set = "A.xcassets/Logo.imageset/Contents.json"
    /// A generous deadline, not a duration: the whole suite shares two cores and Swift's
    /// cooperative pool with the real-binary tests, which can starve it for a minute.
    static let deadline = 600_000

    /// A core on `configuration` (the shipped rules, no log), its events consumed as the daemon's
    /// service does; started unless `start` is false.
    static func started(_ configuration: DaemonConfiguration, watcher: FakeWatchEventSource, start: Bool = true) async -> (
        DaemonCore, Task<Void, Never>
    ) {
        var configuration = configuration
        configuration.ruleSources = ShippedModules.sources(environment: [:])
        let core = DaemonCore(
            configuration: configuration, version: "test", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            eventLog: nil, notifier: SystemdNotifier(environment: [:]), watcher: watcher)
        let events = watcher.events
        let consumer = Task { for await event in events { await core.receive(event) } }
        if start { await core.start() }
        return (core, consumer)
    }

    /// A core on one root with a valid image set, its events consumed as the daemon's service does.
    struct Fixture {
        let tree: TempTree
        let watcher = FakeWatchEventSource()
        let core: DaemonCore
        let consumer: Task<Void, Never>

        init(settleMilliseconds: Int = 5, settleCapMilliseconds: Int = 500) async throws {
            tree = try TempTree([DaemonCoreWatcherSeamTests.set: .text(#"{"images":[]}"#)])
            var configuration = DaemonConfiguration(socketPath: tree.path + "/unused.sock", kinds: BuiltinKinds.registry)
            configuration.settleMilliseconds = settleMilliseconds
            configuration.settleCapMilliseconds = settleCapMilliseconds
            configuration.roots = [tree.path]
            (core, consumer) = await DaemonCoreWatcherSeamTests.started(configuration, watcher: watcher)
        }

        var contentsPath: String { tree.path + "/" + DaemonCoreWatcherSeamTests.set }

        func breakTheSet() throws { try tree.write([DaemonCoreWatcherSeamTests.set: .text("{ broken")]) }

        func rules() async throws -> [String] {
            try await core.diagnostics(root: nil, path: nil).diagnostics.map(\.rule)
        }

        func stop() async {
            await core.stop()
            await consumer.value
        }
    }

    @Test func theCoreWatchesItsRootsThroughTheSource() async throws {
        let f = try await Fixture()
        #expect(f.watcher.watchedRoots == [f.tree.path])
        let status = await f.core.status()
        #expect(status.roots.map(\.state) == [.ready] && status.watches == 1)
        await f.stop()
    }

    @Test func aSyncWaitsForTheChangeReadBeforeIt() async throws {
        let f = try await Fixture(settleMilliseconds: 50)
        try f.breakTheSet()
        f.watcher.send(.changed(root: f.tree.path, path: f.contentsPath))
        // The barrier comes back at once, after the change: sync must still wait for it to settle
        // and be applied.
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        #expect(try await f.rules() == ["catalog.contents-invalid"])
        #expect(f.watcher.barriersAsked.count == 1)
        await f.stop()
    }

    @Test func changesToOneFileSettleIntoOneApply() async throws {
        let f = try await Fixture(settleMilliseconds: 30)
        let before = await f.core.status().generation
        try f.breakTheSet()
        for _ in 0..<20 { f.watcher.send(.changed(root: f.tree.path, path: f.contentsPath)) }
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        let after = await f.core.status().generation
        #expect(after == before + 1, "twenty events, one change set, one new generation (\(before) → \(after))")
        await f.stop()
    }

    @Test func anOverflowRescansTheRootAndAnswersABarrierWhoseEventWasLost() async throws {
        let f = try await Fixture()
        // A change the kernel dropped, and a barrier dropped with it: the watcher sends the
        // rescan, then the barrier again from its file (`WatchLoop.reissueBarriers`).
        try f.breakTheSet()
        f.watcher.answersBarriers = false
        let core = f.core
        let sync = Task { try await core.sync(timeoutMilliseconds: Self.deadline) }
        while f.watcher.barriersAsked.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        f.watcher.send(.rescan(root: f.tree.path, reason: .queueOverflow))
        f.watcher.send(.barrier(f.watcher.barriersAsked[0]))
        _ = try await sync.value
        #expect(try await f.rules() == ["catalog.contents-invalid"], "the rescan read the disk")
        let status = await f.core.status()
        #expect(status.roots.first?.recrawls == 1)
        #expect(await f.core.metricsText().contains("reswatch_rescans_total{root=\"\(f.tree.path)\",reason=\"inotify queue overflow\"} 1"))
        await f.stop()
    }

    @Test func aRescanDoesNotAnswerASyncWaitingForItsBarrier() async throws {
        let f = try await Fixture()
        // A new watch's follow-up rescan read while a `sync` waits: changes made before the sync
        // may still be unread behind it, so only the barrier itself may answer.
        try f.breakTheSet()
        f.watcher.answersBarriers = false
        let core = f.core
        let returned = Mutex(false)
        let sync = Task {
            _ = try await core.sync(timeoutMilliseconds: Self.deadline)
            returned.withLock { $0 = true }
        }
        while f.watcher.barriersAsked.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        f.watcher.send(.rescan(root: f.tree.path, reason: .watchAdded))
        while try await f.rules() != ["catalog.contents-invalid"] { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!returned.withLock { $0 }, "the rescan is applied, the barrier not read: the sync still waits")
        f.watcher.send(.barrier(f.watcher.barriersAsked[0]))
        try await sync.value
        #expect(returned.withLock { $0 })
        await f.stop()
    }

    @Test func anOverflowIsCountedOnceForEveryRoot() async throws {
        let f = try await Fixture()
        f.watcher.overflow()
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        let metrics = await f.core.metricsText()
        #expect(metrics.contains("reswatch_inotify_overflows_total{queue=\"kernel\"} 1"), "\(metrics)")
        #expect(await f.core.status().roots.first?.recrawls == 1)
        await f.stop()
    }

    @Test func theFollowUpOfANewWatchIsNotARecrawl() async throws {
        let f = try await Fixture()
        f.watcher.send(.rescan(root: f.tree.path, reason: .watchAdded))
        f.watcher.send(.rescan(root: f.tree.path, reason: .watchTableCompacted))
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        #expect(await f.core.status().roots.first?.recrawls == 1)
        await f.stop()
    }

    @Test func aDegradedRootSaysWhyAndRecovers() async throws {
        let f = try await Fixture()
        f.watcher.send(.degraded(root: f.tree.path, reason: "fs.inotify.max_user_watches reached"))
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        var root = try #require(await f.core.status().roots.first)
        #expect(root.state == .degraded && root.reason == "fs.inotify.max_user_watches reached")
        f.watcher.send(.recovered(root: f.tree.path))
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        root = try #require(await f.core.status().roots.first)
        #expect(root.state == .ready && root.reason == nil)
        await f.stop()
    }

    @Test func aBarrierThatCannotBeWrittenFailsTheSyncAtOnce() async throws {
        let f = try await Fixture()
        f.watcher.writesBarriers = false
        await #expect(throws: RPCError.self) { try await f.core.sync(timeoutMilliseconds: 60_000) }
        await f.stop()
    }

    @Test func aGoneRootIsNoLongerWatched() async throws {
        let f = try await Fixture()
        f.watcher.send(.rootGone(root: f.tree.path))
        _ = try await f.core.sync(timeoutMilliseconds: Self.deadline)
        #expect(await f.core.rootPaths.isEmpty && f.watcher.watchedRoots.isEmpty)
        await f.stop()
    }
}
