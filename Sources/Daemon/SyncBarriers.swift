/// `sync` barriers: each waits for its own event to come back through the watcher's queue (then it
/// is *seen*, at the sequence number of the events read before it), and is answered once every
/// change read before it has been applied. Generic over the waiter so that it can be tested
/// without continuations.
struct SyncBarriers<Waiter> {
    private var lastID: UInt64 = 0
    /// Asked for, their event not read yet.
    private var registered: [UInt64: Waiter] = [:]
    /// Their event read at `sequence`; answered when no older change is unapplied.
    private var seen: [UInt64: (sequence: UInt64, waiter: Waiter)] = [:]

    var hasSeen: Bool { !seen.isEmpty }

    /// The id of the next barrier.
    mutating func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    mutating func register(_ id: UInt64, _ waiter: Waiter) { registered[id] = waiter }

    /// Its event came back at `sequence`. False for a barrier that is no longer waited for.
    mutating func seen(_ id: UInt64, at sequence: UInt64) -> Bool {
        guard let waiter = registered.removeValue(forKey: id) else { return false }
        seen[id] = (sequence, waiter)
        return true
    }

    /// The seen barriers older than `oldest` (the oldest unapplied change), removed: answer them.
    mutating func release(below oldest: UInt64) -> [Waiter] {
        let due = seen.filter { $0.value.sequence < oldest }
        for id in due.keys { seen[id] = nil }
        return due.sorted { $0.key < $1.key }.map(\.value.waiter)
    }

    /// A barrier given up (timed out, or never written): its waiter, wherever it was.
    mutating func remove(_ id: UInt64) -> Waiter? {
        registered.removeValue(forKey: id) ?? seen.removeValue(forKey: id)?.waiter
    }

    /// Every waiter, removed (shutdown).
    mutating func removeAll() -> [Waiter] {
        defer {
            registered = [:]
            seen = [:]
        }
        return Array(registered.values) + seen.values.map(\.waiter)
    }
}
