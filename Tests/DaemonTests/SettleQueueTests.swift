import Testing
import Watcher

@testable import Daemon

/// Settling as a value: what waits, for how long, and which sequence number a `sync` barrier
/// must wait past.
@Suite struct SettleQueueTests {
    let t0 = ContinuousClock.now
    let settle = Duration.milliseconds(20)
    let cap = Duration.milliseconds(100)

    @Test func changesGatherPerRootUntilTaken() {
        var queue = SettleQueue()
        #expect(!queue.isSettling && queue.wait(now: t0, settle: settle, cap: cap) == nil)
        queue.count()
        queue.changed("/r/a.png", in: "/r")
        queue.count()
        queue.changed("/r/a.png", in: "/r")
        queue.count()
        queue.changed("/s/b.png", in: "/s")
        queue.read(at: t0)
        #expect(queue.isSettling && queue.depth == 2)
        let batch = queue.take()
        #expect(batch.paths == ["/r": ["/r/a.png"], "/s": ["/s/b.png"]] && batch.roots == ["/r", "/s"])
        #expect(batch.since == ["/r": 1, "/s": 3], "each root's oldest change")
        #expect(batch.firstEvent == t0 && !batch.reloadRules)
        let again = queue.take()
        #expect(!queue.isSettling && queue.depth == 0 && again == SettleQueue.Batch())
    }

    @Test func quietIsCountedFromTheLastChangeAndCappedFromTheFirst() {
        var queue = SettleQueue()
        queue.count()
        queue.changed("/r/a", in: "/r")
        queue.read(at: t0)
        #expect(queue.wait(now: t0, settle: settle, cap: cap) == .milliseconds(20))
        #expect(queue.wait(now: t0 + .milliseconds(5), settle: settle, cap: cap) == .milliseconds(15))
        #expect(queue.wait(now: t0 + .milliseconds(20), settle: settle, cap: cap) == nil, "quiet for settle: flush")
        // A write every 10 ms never leaves 20 ms of quiet: the cap flushes 100 ms after the first.
        for step in 1...9 { queue.read(at: t0 + .milliseconds(10 * step)) }
        #expect(queue.wait(now: t0 + .milliseconds(95), settle: settle, cap: cap) == .milliseconds(5))
        #expect(queue.wait(now: t0 + .milliseconds(100), settle: settle, cap: cap) == nil)
    }

    @Test func aRescanAndARuleChangeAreKeptBesideThePaths() {
        var queue = SettleQueue()
        queue.count()
        queue.rescan("/r", because: .queueOverflow)
        queue.count()
        queue.ruleModuleChanged()
        queue.read(at: t0)
        let batch = queue.take()
        #expect(batch.rescans == ["/r": .queueOverflow] && batch.reloadRules && batch.roots == ["/r"])
        #expect(batch.since == ["/r": 1, SettleQueue.rulesKey: 2])
    }

    @Test func aRemovedRootsChangesAreForgotten() {
        var queue = SettleQueue()
        queue.count()
        queue.changed("/r/a", in: "/r")
        queue.count()
        queue.rescan("/r", because: .bufferOverflow)
        queue.forget("/r")
        let batch = queue.take()
        #expect(batch.roots.isEmpty)
        #expect(queue.oldestUnapplied { _ in true } == .max)
    }

    @Test func theOldestUnappliedChangeIsPendingOrInABatch() {
        var queue = SettleQueue()
        queue.count()
        queue.changed("/r/a", in: "/r")
        #expect(queue.oldestUnapplied { _ in true } == 1)
        let batch = queue.take()
        let id = queue.begin("/r", since: batch.since["/r"])
        queue.count()
        queue.changed("/s/b", in: "/s")
        #expect(queue.oldestUnapplied { _ in true } == 1, "the batch being applied holds 1")
        #expect(queue.oldestUnapplied { $0 == "/s" } == 2, "a root that does not count (still scanning) holds nothing")
        queue.finish(id)
        #expect(queue.oldestUnapplied { _ in true } == 2 && queue.depth == 1)
    }
}
