/// What the daemon needs of a watcher: `InotifyWatcher` in the daemon, a scripted fake in tests
/// (`FakeWatchEventSource` in TestSupport), so settling, barriers, overflow and recrawl can be
/// tested against the real daemon core without inotify.
package protocol WatchEventSource: Sendable {
    /// Every event, in order; finished when the source stops.
    var events: AsyncStream<WatchEvent> { get }
    /// When the source last read an event (settling counts quiet from here).
    var lastEventRead: ContinuousClock.Instant? { get }
    /// Watches held (a metric and a status field).
    var watchCount: Int { get }
    /// Roots that could not be watched completely, with the reason.
    var degradedRoots: [String: String] { get }
    /// Whether every watch of `root` is in place now (`add(root:)` done, its folders watched as far
    /// as they can be), though its `.rescan(reason: .watchAdded)` may not have been read yet; false
    /// once it is removed. The daemon asks before a root's first scan (DaemonCore+WatchAhead.swift).
    func watchesPlaced(_ root: String) -> Bool
    /// Times events were lost: the kernel's queue overflowed, or the source's own buffer did.
    var overflows: (kernel: Int, buffer: Int) { get }

    func start()
    func add(root: String)
    func remove(root: String)
    /// Asks for `.barrier(id)` after every event queued before now; false when it cannot be asked.
    func barrier(_ id: UInt64) -> Bool
    /// Stops delivering events and finishes `events`.
    func stop()
    /// Releases what the source holds on disk once `events` has finished (idempotent).
    func removeWakeDirectory()
}

extension InotifyWatcher: WatchEventSource {}
