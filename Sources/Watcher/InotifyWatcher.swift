import CInotifyTools
import Foundation
import Synchronization
import SystemCalls

/// Watches directory trees through libinotifytools. The library is process-global, unlocked and
/// blocking, so one dedicated thread makes every call (design.md); events are copied out at once
/// and handed on through a bounded `AsyncStream`. Roots are added and removed through commands the
/// thread picks up within a second.
public final class InotifyWatcher: Sendable {
    public let events: AsyncStream<WatchEvent>
    let continuation: AsyncStream<WatchEvent>.Continuation
    let excludes: Set<String>

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
        var running = false
    }

    let shared = Mutex(Shared())
    private let done = DispatchSemaphore(value: 0)
    /// A private directory the thread watches: touching a file in it wakes the thread at once
    /// (libinotifytools hides its fd, so there is nothing else to wake its select()).
    let wakeDirectory: String?

    /// - Parameters:
    ///   - excludes: directory names never watched (build outputs).
    ///   - bufferLimit: events buffered for a slow consumer before a rescan is signalled instead.
    public init(excludes: Set<String>, bufferLimit: Int = 65_536) {
        self.excludes = excludes
        (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        var template = Array("/tmp/reswatch-wake.XXXXXX".utf8CString)
        wakeDirectory = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) }
    }

    deinit {
        if let wakeDirectory {
            unlink(wakeDirectory + "/wake")
            rmdir(wakeDirectory)
        }
    }

    /// Wakes the watcher thread so it picks up commands now rather than within a second.
    func wake() {
        guard let wakeDirectory else { return }
        let fd = open(wakeDirectory + "/wake", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
    }

    /// Starts the watcher thread (once).
    public func start() {
        let first = shared.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        guard first else { return }
        let thread = Thread { [self] in
            var loop = WatchLoop(watcher: self)
            loop.run()
            continuation.finish()
            done.signal()
        }
        thread.name = "reswatch-inotify"
        thread.start()
    }

    public func add(root: String) {
        shared.withLock { $0.commands.append(.add(root)) }
        wake()
    }

    public func remove(root: String) {
        shared.withLock { $0.commands.append(.remove(root)) }
        wake()
    }

    /// Asks the thread to stop and waits for it (at most about a second: its wait times out each second).
    public func stop() {
        let wasStarted = shared.withLock { s -> Bool in
            s.stop = true
            return s.started
        }
        wake()
        if wasStarted { done.wait() } else { continuation.finish() }
    }

    /// Watches currently held.
    public var watchCount: Int { shared.withLock { $0.watchCount } }

    /// Roots that could not be watched completely, with the reason.
    public var degradedRoots: [String: String] { shared.withLock { $0.degraded } }

    /// `/proc/sys/fs/inotify/max_queued_events` (libinotifytools' own getter reads the wrong file).
    public static func maxQueuedEvents() -> Int? { readProcInt("/proc/sys/fs/inotify/max_queued_events") }
    public static func maxUserWatches() -> Int? { readProcInt("/proc/sys/fs/inotify/max_user_watches") }

    static func readProcInt(_ path: String) -> Int? {
        guard let bytes = try? FileSystem.readFile(path, limit: 64) else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
