import CInotifyTools
import Foundation
import Synchronization
import SystemCalls

/// Watches directory trees through libinotifytools. The library is process-global, unlocked and
/// blocking, so one dedicated thread makes every call (libinotifytools is not thread-safe); events are copied out at once
/// and handed on through a bounded `AsyncStream`. Roots are added and removed through commands the
/// thread picks up within a second.
package final class InotifyWatcher: Sendable {
    package let events: AsyncStream<WatchEvent>
    let continuation: AsyncStream<WatchEvent>.Continuation
    /// Folder names never watched (names, and `*.framework`-style endings).
    let excludes: ExcludedNames

    enum Command: Sendable {
        case add(String)
        case remove(String)
    }

    struct Shared {
        var commands: [Command] = []
        var stop = false
        var started = false
        var watchCount = 0
        var degraded: [String: String] = [:]
        /// Roots whose watches the thread has placed (`watchesPlaced`).
        var placed: Set<String> = []
        /// Adds and removes asked for a root that the thread has not carried out yet: until it
        /// has, `placed` says what was, not what will be.
        var pending: [String: Int] = [:]
        var kernelOverflows = 0
        var bufferOverflows = 0
    }

    let shared = Mutex(Shared())
    /// When the thread last read an event from the kernel (settling counts quiet from here, not
    /// from when the event reached the daemon's actor, one thread hop later).
    let lastRead = Mutex<ContinuousClock.Instant?>(nil)
    package var lastEventRead: ContinuousClock.Instant? { lastRead.withLock { $0 } }
    private let done = DispatchSemaphore(value: 0)
    /// A private directory the thread watches: touching a file in it wakes the thread at once
    /// (libinotifytools hides its fd, so there is nothing else to wake its select()).
    package let wakeDirectory: String?
    /// Set once the private folder is removed: nothing may create a file in it again.
    private let folderRemoved = Mutex(false)

    /// - Parameters:
    ///   - excludes: directory names never watched (build outputs, vendored folders; `*.x` endings).
    ///   - bufferLimit: events buffered for a slow consumer before a rescan is signalled instead.
    package init(excludes: Set<String>, bufferLimit: Int = 65_536) {
        self.excludes = ExcludedNames(excludes)
        (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        wakeDirectory = try? FileSystem.makeTemporaryDirectory(named: "reswatch-wake.")
    }

    deinit { removeWakeDirectory() }

    /// Wakes the watcher thread so it picks up commands now rather than within a second.
    func wake() {
        guard let wakeDirectory, !folderRemoved.withLock({ $0 }) else { return }
        try? FileSystem.touchEmpty(wakeDirectory + "/wake")
    }

    /// Asks for `.barrier(id)` once every event queued before now has been delivered. The file is
    /// created in the watcher's private folder (mode 0700, made by mkdtemp): never in a watched
    /// root, never through a link (O_EXCL|O_NOFOLLOW). False when it could not be written.
    package func barrier(_ id: UInt64) -> Bool {
        guard let wakeDirectory, !folderRemoved.withLock({ $0 }) else { return false }
        // Closed at once: IN_CLOSE_WRITE is the event that carries the barrier.
        return (try? FileSystem.createNewFile(wakeDirectory + "/barrier-\(id)")) != nil
    }

    /// Starts the watcher thread (once).
    package func start() {
        let first = shared.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        guard first else { return }
        let thread = Thread { [self] in
            // Named from inside, through pthreads (`ThreadName`: Foundation's `Thread.name` left
            // it unnamed now and then).
            ThreadName.setCurrent("rw-inotify")
            var loop = WatchLoop(watcher: self)
            loop.run()
            continuation.finish()
            done.signal()
        }
        thread.start()
    }

    package func add(root: String) {
        shared.withLock {
            $0.commands.append(.add(root))
            $0.pending[root, default: 0] += 1
        }
        wake()
    }

    package func remove(root: String) {
        shared.withLock {
            $0.commands.append(.remove(root))
            $0.pending[root, default: 0] += 1
        }
        wake()
    }

    /// The thread has carried out an add (`placed`: the root's watches are in place) or a remove.
    func carriedOut(_ root: String, placed: Bool) {
        shared.withLock { s in
            if placed { s.placed.insert(root) } else { s.placed.remove(root) }
            if let n = s.pending[root] { s.pending[root] = n > 1 ? n - 1 : nil }
        }
    }

    /// Asks the thread to stop and waits for it (at most about a second: its wait times out each
    /// second). Any number of calls, from any thread: each returns once the thread has ended.
    package func stop() {
        let wasStarted = shared.withLock { s -> Bool in
            s.stop = true
            return s.started
        }
        wake()
        if wasStarted {
            done.wait()
            done.signal()  // for the next caller
        } else {
            continuation.finish()
        }
        removeWakeDirectory()
    }

    /// The private folder (wake file, unanswered barriers) goes with the watcher.
    package func removeWakeDirectory() {
        guard let wakeDirectory,
            !folderRemoved.withLock({ gone in
                defer { gone = true }; return gone
            })
        else { return }
        if let entries = try? FileSystem.listDirectory(wakeDirectory) {
            for e in entries { FileSystem.removeFile(wakeDirectory + "/" + e.name) }
        }
        FileSystem.removeDirectory(wakeDirectory)
    }

    /// Watches currently held.
    package var watchCount: Int { shared.withLock { $0.watchCount } }

    /// Roots that could not be watched completely, with the reason.
    package var degradedRoots: [String: String] { shared.withLock { $0.degraded } }

    /// Whether the thread has placed `root`'s watches (it says so before it sends `.watchAdded`),
    /// and no add or remove of the root asked since is still to be carried out.
    package func watchesPlaced(_ root: String) -> Bool { shared.withLock { $0.pending[root] == nil && $0.placed.contains(root) } }

    /// Times the kernel's inotify queue overflowed (IN_Q_OVERFLOW), and times the daemon did not
    /// take events fast enough and this watcher's buffer dropped some.
    package var overflows: (kernel: Int, buffer: Int) { shared.withLock { ($0.kernelOverflows, $0.bufferOverflows) } }

    /// `/proc/sys/fs/inotify/max_queued_events` (libinotifytools' own getter reads the wrong file).
    package static func maxQueuedEvents() -> Int? { readProcInt("/proc/sys/fs/inotify/max_queued_events") }
    package static func maxUserWatches() -> Int? { readProcInt("/proc/sys/fs/inotify/max_user_watches") }

    static func readProcInt(_ path: String) -> Int? {
        guard let bytes = try? FileSystem.readFile(path, limit: 64) else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
