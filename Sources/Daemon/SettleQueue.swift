import Watcher

/// Watcher events waiting to be applied: the paths changed and the rescans asked for per root
/// (and whether a rule module changed), when the first and the last were read, and the sequence
/// number of each root's oldest unapplied change; then the batches handed to engine jobs and not
/// yet finished. A `sync` barrier is answered once `oldestUnapplied` is past its own number.
struct SettleQueue {
    /// The key of rule-module changes among the roots' (no root path is empty).
    static let rulesKey = ""

    /// Everything pending at a flush.
    struct Batch: Equatable {
        var paths: [String: Set<String>] = [:]
        var rescans: [String: RescanReason] = [:]
        var reloadRules = false
        var since: [String: UInt64] = [:]
        /// Events read per root (a path written twice counts twice): a change prepared at a
        /// root's first event is the whole batch only if no other event followed it.
        var events: [String: Int] = [:]
        var firstEvent: ContinuousClock.Instant?

        /// The roots with work, in a stable order.
        var roots: [String] { Set(paths.keys).union(rescans.keys).sorted() }
    }

    /// Events read so far (each one, also those that lead to nothing, advances it).
    private(set) var sequence: UInt64 = 0
    private var pending = Batch()
    private var lastEvent: ContinuousClock.Instant?
    /// Batches handed to engine jobs and not finished: id → (root or rulesKey, oldest sequence).
    private var applying: [UInt64: (key: String, since: UInt64)] = [:]
    private var lastBatch: UInt64 = 0

    var isSettling: Bool { pending.firstEvent != nil }

    /// Changed paths waiting to settle, plus batches being applied (the queue-depth metric).
    var depth: Int { pending.paths.values.reduce(0) { $0 + $1.count } + applying.count }

    /// One more event was read.
    mutating func count() { sequence += 1 }

    mutating func changed(_ path: String, in root: String) {
        pending.paths[root, default: []].insert(path)
        pending.events[root, default: 0] += 1
        mark(root)
    }

    mutating func rescan(_ root: String, because reason: RescanReason) {
        pending.rescans[root] = reason
        pending.events[root, default: 0] += 1
        mark(root)
    }

    /// Events of `root` waiting to settle.
    func pendingEvents(of root: String) -> Int { pending.events[root] ?? 0 }

    mutating func ruleModuleChanged() {
        pending.reloadRules = true
        mark(Self.rulesKey)
    }

    private mutating func mark(_ key: String) {
        if pending.since[key] == nil { pending.since[key] = sequence }
    }

    /// A root no longer watched: its pending changes go.
    mutating func forget(_ root: String) {
        pending.paths[root] = nil
        pending.rescans[root] = nil
        pending.since[root] = nil
        pending.events[root] = nil
    }

    /// The watcher read a change at `instant`: quiet is counted from the last one.
    mutating func read(at instant: ContinuousClock.Instant) {
        if pending.firstEvent == nil { pending.firstEvent = instant }
        lastEvent = instant
    }

    /// How much longer to wait before flushing: nil when it is time (`settle` of quiet, or `cap`
    /// since the first pending change, or nothing pending).
    func wait(now: ContinuousClock.Instant, settle: Duration, cap: Duration) -> Duration? {
        guard let first = pending.firstEvent, let last = lastEvent else { return nil }
        let quiet = now - last
        let waited = now - first
        if quiet >= settle || waited >= cap { return nil }
        return min(settle - quiet, cap - waited)
    }

    /// Everything pending, which is then empty.
    mutating func take() -> Batch {
        defer {
            pending = Batch()
            lastEvent = nil
        }
        return pending
    }

    /// A job for `key` starts with the changes read from `since` on (its oldest); returns its id.
    mutating func begin(_ key: String, since: UInt64?) -> UInt64 {
        lastBatch += 1
        applying[lastBatch] = (key, since ?? sequence)
        return lastBatch
    }

    mutating func finish(_ batch: UInt64) { applying[batch] = nil }

    /// A batch of `key` is being applied (handed to an engine job, not finished).
    func isApplying(_ key: String) -> Bool { applying.values.contains { $0.key == key } }

    /// The sequence number of the oldest change read and not yet applied, among the keys
    /// `counts` accepts (`UInt64.max` when there is none).
    func oldestUnapplied(counting counts: (String) -> Bool) -> UInt64 {
        var oldest = UInt64.max
        for (key, since) in pending.since where counts(key) { oldest = min(oldest, since) }
        for (_, batch) in applying where counts(batch.key) { oldest = min(oldest, batch.since) }
        return oldest
    }
}
