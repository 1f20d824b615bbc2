import CInotifyTools
import Foundation
import SystemCalls

/// The body of the watcher thread: every libinotifytools call in reswatch happens here.
struct WatchLoop {
    let watcher: InotifyWatcher
    /// Our own wd → directory map is the truth (the library's paths go stale on renames).
    var directories: [Int32: String] = [:]
    var roots: [String] = []
    /// A MOVED_FROM waiting for its MOVED_TO.
    var pendingMove: (cookie: UInt32, path: String, isDirectory: Bool)?
    var staleEntries = 0
    /// Roots whose events were dropped because the consumer's buffer was full.
    var owedRescans: Set<String> = []
    /// Barriers whose event the full stream could not take, or that came while rescans were
    /// owed: sent, in order, once every owed rescan is (a barrier is never dropped, and never
    /// overtakes the rescan of events lost before it).
    var owedBarriers: [UInt64] = []
    var degraded: [String: String] = [:]
    var lastDegradedRetry = Date()
    var wakeWatch: Int32 = -1
    /// Stale entries piled up: compact at the next quiet moment (see `compact`).
    var compactRequested = false
    static let compactAfter = 1024
    static let degradedRetrySeconds: TimeInterval = 30

    init(watcher: InotifyWatcher) { self.watcher = watcher }

    mutating func run() {
        guard inotifytools_initialize() != 0 else {
            let reason = "inotify could not be initialised: \(String(cString: strerror(inotifytools_error())))"
            for root in watcher.shared.withLock({ $0.commands }).compactMap(\.addedRoot) {
                emit(.degraded(root: root, reason: reason))
            }
            return
        }
        defer { inotifytools_cleanup() }
        watchWakeDirectory()
        while true {
            let (commands, stop) = watcher.shared.withLock { s -> ([InotifyWatcher.Command], Bool) in
                defer { s.commands = [] }
                return (s.commands, s.stop)
            }
            if stop { return }
            for command in commands {
                switch command {
                case .add(let root): addRoot(root)
                case .remove(let root): removeRoot(root)
                }
            }
            payOwedRescans()
            retryDegradedRoots()
            let count = directories.count
            watcher.shared.withLock { $0.watchCount = count }
            // Idle, the thread sleeps until an event: commands and shutdown arrive as one (the wake
            // file in the private folder). A one-second timeout only while something is owed: an
            // unpaired move to flush, a rescan or barrier the full stream could not take, a
            // degraded root to retry. (A negative timeout blocks until an event; 0 returns at once.)
            let owed = !owedRescans.isEmpty || !owedBarriers.isEmpty
            let timeout = compactRequested || pendingMove != nil || owed || !degraded.isEmpty ? 1 : -1
            guard let event = inotifytools_next_events(timeout, 1) else {
                flushPendingMove()
                // Nothing buffered and nothing queued: no event of the old instance can be read
                // after the library starts afresh.
                if compactRequested { compact() }
                continue
            }
            let readAt = ContinuousClock.now
            watcher.lastRead.withLock { $0 = readAt }
            // Copy everything out at once: the pointer is into the library's static buffer.
            let wd = event.pointee.wd
            let mask = EventMask(rawValue: event.pointee.mask)
            let cookie = event.pointee.cookie
            let name =
                rw_inotify_event_name(event).map { raw in
                    FileName.decode(UnsafeRawBufferPointer(start: raw, count: strlen(raw)).bindMemory(to: UInt8.self))
                } ?? ""
            handle(wd: wd, mask: mask, cookie: cookie, name: name)
        }
    }

    // MARK: - events

    mutating func handle(wd: Int32, mask: EventMask, cookie: UInt32, name: String) {
        if mask.contains(.queueOverflow) {
            watcher.shared.withLock { $0.kernelOverflows += 1 }
            flushPendingMove()
            for root in roots { emit(.rescan(root: root, reason: .queueOverflow)) }
            reissueBarriers()
            return
        }
        if mask.contains(.ignored) {
            // The kernel dropped the watch (directory deleted) but libinotifytools keeps its entry,
            // and its filename index would hand that dead wd back if the same path is created and
            // watched again. Rename the dead entry to a name no path can have.
            if let dir = directories.removeValue(forKey: wd) {
                // Only while the library's entry for that path is still this dead wd: if the path was
                // re-created and watched meanwhile, addWatches already moved the dead entry away.
                if wdOf(dir) == wd { replaceFilename(dir + "/", "\u{1}stale-\(wd)/") }
                staleEntries += 1
            }
            if staleEntries > Self.compactAfter { compactRequested = true }
            return
        }
        if wd == wakeWatch {
            // Everything queued before this event has been read and emitted in order.
            if name.hasPrefix("barrier-"), let id = UInt64(name.dropFirst("barrier-".count)) {
                if let dir = watcher.wakeDirectory { FileSystem.removeFile(dir + "/" + name) }
                confirmBarrier(id)
            }
            return
        }
        guard let directory = directories[wd] else { return }
        let path = name.isEmpty ? directory : directory + "/" + name
        let isDirectory = mask.contains(.isDirectory)
        if !name.isEmpty && isExcludedName(name) {
            // An excluded folder is not watched, but its coming and going changes its parent's
            // listing: the vendored folders a root holds are said (project.left-out).
            if isDirectory, let root = root(of: directory) { emit(.changed(root: root, path: directory)) }
            return
        }
        guard let root = root(of: path) else { return }

        if let pending = pendingMove, !(mask.contains(.movedTo) && cookie == pending.cookie) {
            flushPendingMove()
        }
        if mask.contains(.movedFrom) {
            pendingMove = (cookie, path, isDirectory)
            emit(.changed(root: root, path: path))
            return
        }
        if mask.contains(.movedTo) {
            if let pending = pendingMove, pending.cookie == cookie {
                pendingMove = nil
                if pending.isDirectory {
                    if self.root(of: pending.path) == root {
                        renameSubtree(from: pending.path, to: path)
                    } else {
                        removeWatches(under: pending.path)
                        addWatches(path, root: root)
                    }
                }
            } else if isDirectory {
                addWatches(path, root: root)  // moved in from outside the tree
            }
            emit(.changed(root: root, path: path))
            return
        }
        if mask.contains(.create) && isDirectory {
            // libinotifytools never watches new directories: watch, then let the consumer scan it
            // (files created before the watch existed are found by that scan).
            addWatches(path, root: root)
            emit(.changed(root: root, path: path))
            return
        }
        if mask.contains(.deleteSelf) || mask.contains(.moveSelf) {
            if name.isEmpty && directory == root {
                emit(.rootGone(root: root))
            }
            return
        }
        emit(.changed(root: root, path: path))
    }

    /// A MOVED_FROM with no MOVED_TO: the entry left the watched trees.
    mutating func flushPendingMove() {
        guard let pending = pendingMove else { return }
        pendingMove = nil
        if pending.isDirectory { removeWatches(under: pending.path) }
    }

    // MARK: - watches

    mutating func watchWakeDirectory() {
        guard let dir = watcher.wakeDirectory,
            FileName.withCString(dir, { inotifytools_watch_file($0, Int32(bitPattern: (EventMask.closeWrite).rawValue)) }) != 0
        else { return }
        wakeWatch = wdOf(dir)
    }

    mutating func addRoot(_ root: String) {
        guard !roots.contains(root) else { return watcher.carriedOut(root, placed: true) }
        roots.append(root)
        roots.sort { $0.count > $1.count }  // most specific root first in root(of:)
        addWatches(root, root: root)
        // Known before it is said: the daemon may ask before it reads the event.
        watcher.carriedOut(root, placed: true)
        emit(.rescan(root: root, reason: .watchAdded))
    }

    mutating func removeRoot(_ root: String) {
        defer { watcher.carriedOut(root, placed: false) }
        guard let i = roots.firstIndex(of: root) else { return }
        roots.remove(at: i)
        removeWatches(under: root)
        degraded[root] = nil
        publishDegraded()
    }

    /// Watches `dir` and every directory below it, skipping excluded names and symlinks.
    mutating func addWatches(_ dir: String, root: String) {
        var stack = [dir]
        while let current = stack.popLast() {
            // A dead entry for this path (its directory was deleted, its IN_IGNORED not yet read)
            // would make the library's filename index return the dead wd for the new watch.
            let previous = wdOf(current)
            if previous > 0, directories[previous] != current {
                replaceFilename(current + "/", "\u{1}stale-\(previous)/")
            }
            // Below the root, only a folder itself is watched: a link put in its place since it was
            // listed is refused (IN_ONLYDIR, IN_DONT_FOLLOW), not followed out of the tree.
            let mask = current == root ? EventMask.watched : EventMask.watched.union([.onlyDirectory, .dontFollow])
            let result = FileName.withCString(current) { inotifytools_watch_file($0, Int32(bitPattern: mask.rawValue)) }
            if result == 0 {
                let code = inotifytools_error()
                if code == ENOSPC {
                    let limit = InotifyWatcher.maxUserWatches().map(String.init) ?? "?"
                    let reason =
                        "inotify watch limit reached (fs.inotify.max_user_watches = \(limit)); "
                        + "raise it with: sysctl fs.inotify.max_user_watches=\(max(524_288, (Int(limit) ?? 0) * 2)). "
                        + "Unwatched folders are rescanned every \(Self.degradedRetrySeconds.formatted()) s."
                    if degraded[root] == nil {
                        degraded[root] = reason
                        publishDegraded()
                        emit(.degraded(root: root, reason: reason))
                    }
                    return
                }
                continue  // vanished meanwhile (ENOENT) or unreadable: the consumer's scan reports it
            }
            let wd = wdOf(current)
            // Kept as an exact-size copy: built by appending, the path's buffer had room to grow
            // that it keeps for the daemon's life (a third of the map's bytes, 9,000 folders).
            if wd > 0 { directories[wd] = String(decoding: current.utf8, as: UTF8.self) }
            // Only the subfolders are read (readdir's type, an lstat where it has none): a link to a
            // folder is not followed, as before, and a folder's files cost nothing here.
            guard let subfolders = try? FileSystem.subdirectoryNames(current) else { continue }
            for name in subfolders where !isExcludedName(name) { stack.append(current + "/" + name) }
        }
    }

    func wdOf(_ dir: String) -> Int32 {
        let wd = FileName.withCString(dir + "/") { inotifytools_wd_from_filename($0) }
        return wd > 0 ? wd : FileName.withCString(dir) { inotifytools_wd_from_filename($0) }
    }

    mutating func removeWatches(under dir: String) {
        for (wd, path) in directories where path == dir || path.hasPrefix(dir + "/") {
            inotifytools_remove_watch_by_wd(wd)
            directories[wd] = nil
        }
    }

    /// A directory renamed inside a root: fix our map and the library's names.
    mutating func renameSubtree(from old: String, to new: String) {
        for (wd, path) in directories where path == old || path.hasPrefix(old + "/") {
            directories[wd] = new + path.dropFirst(old.count)
        }
        replaceFilename(old + "/", new + "/")
    }

    /// Stale library entries pile up after deletes: start the library afresh and rescan. Only
    /// when a read has timed out: the library keeps unread events in a static buffer across
    /// `inotifytools_cleanup`, and the new instance numbers its watches from 1 again in the same
    /// order, so an old `IN_IGNORED` read afterwards would kill a new watch (a 1,500-level tree
    /// deleted at once left the daemon deaf to that root and every `sync` timed out).
    mutating func compact() {
        compactRequested = false
        inotifytools_cleanup()
        _ = inotifytools_initialize()
        directories = [:]
        staleEntries = 0
        watchWakeDirectory()
        for root in roots {
            addWatches(root, root: root)
            emit(.rescan(root: root, reason: .watchTableCompacted))
        }
        reissueBarriers()
    }

    /// Barriers whose event was lost (queued in a closed instance, or dropped by an overflow)
    /// still have their file: confirm them now, after the rescans that cover what was lost.
    /// (One confirmed twice is ignored by the consumer.)
    mutating func reissueBarriers() {
        guard let dir = watcher.wakeDirectory, let entries = try? FileSystem.listDirectory(dir) else { return }
        for e in entries where e.name.hasPrefix("barrier-") {
            guard let id = UInt64(e.name.dropFirst("barrier-".count)) else { continue }
            FileSystem.removeFile(dir + "/" + e.name)
            confirmBarrier(id)
        }
    }

    mutating func retryDegradedRoots() {
        guard !degraded.isEmpty, Date().timeIntervalSince(lastDegradedRetry) >= Self.degradedRetrySeconds else { return }
        lastDegradedRetry = Date()
        for root in degraded.keys.sorted() {
            let before = degraded[root]
            degraded[root] = nil
            addWatches(root, root: root)  // already-watched directories are cheap no-ops
            emit(.rescan(root: root, reason: .partlyUnwatched))
            if degraded[root] == nil, before != nil { emit(.recovered(root: root)) }
        }
        publishDegraded()
    }

    func publishDegraded() {
        let snapshot = degraded
        watcher.shared.withLock { $0.degraded = snapshot }
    }

    // MARK: - helpers

    func root(of path: String) -> String? {
        roots.first { path == $0 || path.hasPrefix($0 + "/") }
    }

    func isExcludedName(_ name: String) -> Bool { watcher.excludes.contains(name) }

    /// The library keys its table by path: names that are not UTF-8 go in as their own bytes.
    func replaceFilename(_ old: String, _ new: String) {
        FileName.withCString(old) { o in FileName.withCString(new) { n in inotifytools_replace_filename(o, n) } }
    }

    mutating func emit(_ event: WatchEvent) {
        if case .dropped = watcher.continuation.yield(event) {
            if owedRescans.isEmpty { watcher.shared.withLock { $0.bufferOverflows += 1 } }
            switch event {
            case .changed(let root, _), .rescan(let root, _), .degraded(let root, _), .recovered(let root), .rootGone(let root):
                owedRescans.insert(root)
            case .barrier(let id):
                owedBarriers.append(id)
            }
        }
    }

    /// A barrier's event was read: everything read before it has been sent, or is owed as a
    /// rescan that goes first.
    mutating func confirmBarrier(_ id: UInt64) {
        guard owedRescans.isEmpty, owedBarriers.isEmpty else {
            owedBarriers.append(id)
            payOwedRescans()
            return
        }
        emit(.barrier(id))
    }

    /// Roots whose events were dropped get a rescan as soon as the consumer has room; then the
    /// barriers that waited for those rescans.
    mutating func payOwedRescans() {
        for root in owedRescans.sorted() {
            if case .dropped = watcher.continuation.yield(.rescan(root: root, reason: .bufferOverflow)) { return }
            owedRescans.remove(root)
        }
        while let id = owedBarriers.first {
            if case .dropped = watcher.continuation.yield(.barrier(id)) { return }
            owedBarriers.removeFirst()
        }
    }
}

extension InotifyWatcher.Command {
    var addedRoot: String? { if case .add(let r) = self { return r } else { return nil } }
}
