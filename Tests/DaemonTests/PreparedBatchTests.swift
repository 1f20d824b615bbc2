import Foundation
import Testing
import Watcher

@testable import Daemon

/// A root's first change of a batch is applied while the batch settles (DaemonCore+Settling):
/// nobody sees it before the batch has settled, and what is published is what a batch applied
/// after settling would publish. The batches settle for ten minutes: each test ends the settle
/// itself (`settled`), so a machine too busy to run the test for a while cannot end it first.
@Suite struct PreparedBatchTests {
    typealias Fixture = DaemonCoreWatcherSeamTests.Fixture
    static let deadline = DaemonCoreWatcherSeamTests.deadline
    static let valid = #"{"images":[]}"#
    static let tenMinutes = 600_000

    static func fixture() async throws -> Fixture {
        try await Fixture(settleMilliseconds: tenMinutes, settleCapMilliseconds: tenMinutes)
    }

    /// The batch has settled: flushed now, and applied when `sync` returns.
    static func settled(_ f: Fixture) async throws {
        await f.core.flush()
        _ = try await f.core.sync(timeoutMilliseconds: deadline)
    }

    /// Waits until the root's prepared change has been applied on its engine thread.
    static func waitUntilPrepared(_ f: Fixture) async throws {
        let root = f.tree.path
        for _ in 0..<60_000 {
            if await f.core.roots[root]?.prepared?.done == true { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("the change was never prepared")
    }

    /// Waits until the core has read `count` events of the root (the fake watcher's events reach
    /// it through a stream, later than `send` returns).
    static func waitUntilRead(_ f: Fixture, events count: Int) async throws {
        for _ in 0..<60_000 {
            if await f.core.queue.pendingEvents(of: f.tree.path) >= count { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("the core never read \(count) events")
    }

    /// Breaks the set and sends its change: applied while it settles, not yet published.
    static func breakTheSetAndWaitUntilPrepared(_ f: Fixture) async throws {
        try f.breakTheSet()
        f.watcher.send(.changed(root: f.tree.path, path: f.contentsPath))
        try await waitUntilPrepared(f)
    }

    static func prepared(_ f: Fixture, _ outcome: String) async -> Int? {
        let text = await f.core.metricsText()
        let prefix = "reswatch_prepared_batches_total{outcome=\"\(outcome)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    @Test func aLoneChangeIsAppliedWhileItSettlesAndPublishedWhenItHas() async throws {
        let f = try await Self.fixture()
        let before = await f.core.status().generation
        try await Self.breakTheSetAndWaitUntilPrepared(f)
        // Applied, not published: the batch has not settled.
        #expect(await f.core.status().generation == before)
        #expect(try await f.rules().isEmpty)
        try await Self.settled(f)
        #expect(try await f.rules() == ["catalog.contents-invalid"])
        #expect(await f.core.status().generation == before + 1)
        #expect(await Self.prepared(f, "used") == 1)
        #expect(await Self.prepared(f, "redone") == 0)
        #expect(await f.core.roots[f.tree.path]?.unpublished == nil)
        await f.stop()
    }

    @Test func moreChangesInTheBatchAreAppliedAfterItAndPublishedAsOne() async throws {
        let f = try await Self.fixture()
        let before = await f.core.status().generation
        try await Self.breakTheSetAndWaitUntilPrepared(f)
        // Written again, valid, before the batch settled: the broken state is never published.
        try f.tree.write([DaemonCoreWatcherSeamTests.set: .text(Self.valid)])
        f.watcher.send(.changed(root: f.tree.path, path: f.contentsPath))
        try await Self.waitUntilRead(f, events: 2)
        try await Self.settled(f)
        #expect(try await f.rules().isEmpty)
        #expect(await f.core.status().generation == before, "nothing changed as far as anybody could see")
        #expect(await Self.prepared(f, "redone") == 1)
        #expect(await Self.prepared(f, "used") == 0)
        // The next lone change is prepared and used again.
        try await Self.breakTheSetAndWaitUntilPrepared(f)
        try await Self.settled(f)
        #expect(try await f.rules() == ["catalog.contents-invalid"])
        #expect(await Self.prepared(f, "used") == 1)
        await f.stop()
    }

    @Test func aRescanInTheBatchIsAppliedAfterThePreparedChange() async throws {
        let f = try await Self.fixture()
        try await Self.breakTheSetAndWaitUntilPrepared(f)
        try f.tree.write(["B.xcassets/Other.imageset/Contents.json": .text("{ broken")])
        f.watcher.send(.rescan(root: f.tree.path, reason: .queueOverflow))
        try await Self.waitUntilRead(f, events: 2)
        try await Self.settled(f)
        #expect(try await f.rules() == ["catalog.contents-invalid", "catalog.contents-invalid"])
        #expect(await Self.prepared(f, "redone") == 1)
        await f.stop()
    }
}
