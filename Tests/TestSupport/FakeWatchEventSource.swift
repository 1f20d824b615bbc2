import Synchronization
import Watcher

/// A scripted watcher for the daemon core: a test sends the events inotify would (`send`), and
/// sees what the core asked of it (roots added, barriers). Barriers come back at once, in order
/// after every event sent before them, as with one inotify queue; `answersBarriers = false`
/// loses them (as a full kernel queue does), `writesBarriers = false` makes them fail.
package final class FakeWatchEventSource: WatchEventSource {
    package let events: AsyncStream<WatchEvent>
    private let continuation: AsyncStream<WatchEvent>.Continuation

    struct State {
        var roots: [String] = []
        var degraded: [String: String] = [:]
        var lastRead: ContinuousClock.Instant?
        var answersBarriers = true
        var writesBarriers = true
        var barriersAsked: [UInt64] = []
        var kernelOverflows = 0
        var confirmsWatches = false
        var placesWatches = false
        var placed: Set<String> = []
        var goneOnAdd: Set<String> = []
        var operations: [String] = []
    }
    private let state = Mutex(State())

    package init() { (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self) }

    /// Delivers `event` as if the watcher had just read it from the kernel.
    package func send(_ event: WatchEvent) {
        state.withLock { $0.lastRead = .now }
        continuation.yield(event)
    }

    package var answersBarriers: Bool {
        get { state.withLock { $0.answersBarriers } }
        set { state.withLock { $0.answersBarriers = newValue } }
    }
    /// Says at once that a root's watches are in place when one is added (`.rescan(reason:
    /// .watchAdded)`), as the real watcher says when its thread has placed them.
    package var confirmsWatches: Bool {
        get { state.withLock { $0.confirmsWatches } }
        set { state.withLock { $0.confirmsWatches = newValue } }
    }
    /// Places a root's watches as soon as it is added (`watchesPlaced` is true from then on)
    /// without saying so: the word comes only if `confirmsWatches` (which places them too).
    package var placesWatches: Bool {
        get { state.withLock { $0.placesWatches } }
        set { state.withLock { $0.placesWatches = newValue } }
    }
    package func watchesPlaced(_ root: String) -> Bool { state.withLock { $0.placed.contains(root) } }
    /// Roots that vanish as soon as they are added: `.rootGone` follows their addition.
    package var goneOnAdd: Set<String> {
        get { state.withLock { $0.goneOnAdd } }
        set { state.withLock { $0.goneOnAdd = newValue } }
    }
    package var writesBarriers: Bool {
        get { state.withLock { $0.writesBarriers } }
        set { state.withLock { $0.writesBarriers = newValue } }
    }
    /// What the core asked, in order: "add ROOT", "remove ROOT".
    package var operations: [String] { state.withLock { $0.operations } }
    /// The roots the core watches now.
    package var watchedRoots: [String] { state.withLock { $0.roots } }
    /// Every barrier the core asked for.
    package var barriersAsked: [UInt64] { state.withLock { $0.barriersAsked } }

    /// Marks a root as not completely watched (as an exhausted watch limit does).
    package func setDegraded(_ root: String, reason: String?) { state.withLock { $0.degraded[root] = reason } }

    package var lastEventRead: ContinuousClock.Instant? { state.withLock { $0.lastRead } }
    package var watchCount: Int { state.withLock { $0.roots.count } }
    package var degradedRoots: [String: String] { state.withLock { $0.degraded } }
    package var overflows: (kernel: Int, buffer: Int) { state.withLock { ($0.kernelOverflows, 0) } }
    /// Sends the overflow rescans inotify would, for every watched root, and counts it.
    package func overflow() {
        let roots = state.withLock { s -> [String] in
            s.kernelOverflows += 1
            return s.roots
        }
        for root in roots { send(.rescan(root: root, reason: .queueOverflow)) }
    }
    package func start() {}
    package func add(root: String) {
        let (confirms, gone) = state.withLock { s in
            s.roots.append(root)
            s.operations.append("add " + root)
            if s.placesWatches || s.confirmsWatches { s.placed.insert(root) }
            return (s.confirmsWatches, s.goneOnAdd.contains(root))
        }
        if confirms { send(.rescan(root: root, reason: .watchAdded)) }
        if gone { send(.rootGone(root: root)) }
    }
    package func remove(root: String) {
        state.withLock {
            $0.roots.removeAll { $0 == root }
            $0.operations.append("remove " + root)
            $0.placed.remove(root)
        }
    }

    package func barrier(_ id: UInt64) -> Bool {
        let (writes, answers) = state.withLock { s in
            s.barriersAsked.append(id)
            return (s.writesBarriers, s.answersBarriers)
        }
        guard writes else { return false }
        if answers { send(.barrier(id)) }
        return true
    }

    package func stop() { continuation.finish() }
    package func removeWakeDirectory() {}
}
