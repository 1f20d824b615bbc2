import Testing

@testable import Daemon

/// Barriers as a value: a `sync` is answered once its own event is back and every change read
/// before it is applied; a rescan stands in for barrier events a full queue dropped.
@Suite struct SyncBarriersTests {
    @Test func aSeenBarrierWaitsForTheChangesReadBeforeIt() {
        var barriers = SyncBarriers<String>()
        let id = barriers.nextID()
        barriers.register(id, "sync 1")
        var answered = barriers.release(below: .max)
        #expect(!barriers.hasSeen && answered.isEmpty, "not seen: nothing to answer")
        let seen = barriers.seen(id, at: 3)
        #expect(seen)
        answered = barriers.release(below: 3)
        #expect(answered.isEmpty, "change 3 is still unapplied")
        answered = barriers.release(below: 4)
        #expect(answered == ["sync 1"])
        let left = barriers.removeAll()
        #expect(!barriers.hasSeen && left.isEmpty)
    }

    @Test func anUnknownOrExpiredBarrierEventIsIgnored() {
        var barriers = SyncBarriers<String>()
        let unknown = barriers.seen(42, at: 1)
        #expect(!unknown)
        let id = barriers.nextID()
        barriers.register(id, "sync")
        let removed = barriers.remove(id)
        #expect(removed == "sync", "timed out")
        let late = barriers.seen(id, at: 1)
        #expect(!late && !barriers.hasSeen)
    }

    @Test func shutdownHandsBackEveryWaiter() {
        var barriers = SyncBarriers<String>()
        for name in ["x", "y"] { barriers.register(barriers.nextID(), name) }
        _ = barriers.seen(1, at: 1)
        let all = barriers.removeAll()
        #expect(Set(all) == ["x", "y"])
        let (one, two) = (barriers.remove(1), barriers.remove(2))
        #expect(one == nil && two == nil)
    }
}
