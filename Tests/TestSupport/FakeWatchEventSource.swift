import Synchronization
import Watcher

/// A scripted watcher for the daemon core: a test sends the events inotify would (`send`), and
/// sees what the core asked of it (roots added, barriers). Barriers come back at once, in order
/// after every event sent before them, as with one inotify queue; `answersBarriers = false`
/// loses them (as a full kernel queue does), `writesBarriers = false` makes them fail.
public final class FakeWatchEventSource: WatchEventSource {
    public let events: AsyncStream<WatchEvent>
    private let continuation: AsyncStream<WatchEvent>.Continuation

    struct State {
        var roots: [String] = []
        var degraded: [String: String] = [:]
        var lastRead: ContinuousClock.Instant?
        var answersBarriers = true
        var writesBarriers = true
        var barriersAsked: [UInt64] = []
    }
    private let state = Mutex(State())

    public init() { (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self) }

    /// Delivers `event` as if the watcher had just read it from the kernel.
    public func send(_ event: WatchEvent) {
        state.withLock { $0.lastRead = .now }
        continuation.yield(event)
    }

    public var answersBarriers: Bool {
        get { state.withLock { $0.answersBarriers } }
        set { state.withLock { $0.answersBarriers = newValue } }
    }
    public var writesBarriers: Bool {
        get { state.withLock { $0.writesBarriers } }
        set { state.withLock { $0.writesBarriers = newValue } }
    }
    /// The roots the core watches now.
    public var watchedRoots: [String] { state.withLock { $0.roots } }
    /// Every barrier the core asked for.
    public var barriersAsked: [UInt64] { state.withLock { $0.barriersAsked } }

    /// Marks a root as not completely watched (as an exhausted watch limit does).
    public func setDegraded(_ root: String, reason: String?) { state.withLock { $0.degraded[root] = reason } }

    public var lastEventRead: ContinuousClock.Instant? { state.withLock { $0.lastRead } }
    public var watchCount: Int { state.withLock { $0.roots.count } }
    public var degradedRoots: [String: String] { state.withLock { $0.degraded } }
    public func start() {}
    public func add(root: String) { state.withLock { $0.roots.append(root) } }
    public func remove(root: String) { state.withLock { $0.roots.removeAll { $0 == root } } }

    public func barrier(_ id: UInt64) -> Bool {
        let (writes, answers) = state.withLock { s in
            s.barriersAsked.append(id)
            return (s.writesBarriers, s.answersBarriers)
        }
        guard writes else { return false }
        if answers { send(.barrier(id)) }
        return true
    }

    public func stop() { continuation.finish() }
    public func removeWakeDirectory() {}
}
