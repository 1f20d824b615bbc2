/// What the watcher tells its consumer. Paths are absolute.
package enum WatchEvent: Sendable, Hashable {
    /// Something at this path changed (created, written, deleted, attributes, renamed from/to).
    case changed(root: String, path: String)
    /// Events were lost for this root (queue overflow, unpaired move, consumer too slow): rescan it.
    case rescan(root: String, reason: RescanReason)
    /// A root could not be watched completely (e.g. fs.inotify.max_user_watches exhausted).
    case degraded(root: String, reason: String)
    /// A root that was degraded is fully watched again.
    case recovered(root: String)
    /// A root directory itself was deleted or moved away.
    case rootGone(root: String)
    /// The barrier `barrier(_:)` asked for: every event queued before it has been delivered (one
    /// inotify instance has one queue, and the barrier's file is in the watcher's private folder).
    case barrier(UInt64)
}

/// Why a root must be re-listed: the first is the follow-up of every new watch, the others mean
/// events may have been lost.
package enum RescanReason: String, Sendable, Hashable, CustomStringConvertible {
    /// The watch is in place: anything written during the initial scan is picked up.
    case watchAdded = "watch added"
    /// The kernel's queue overflowed (IN_Q_OVERFLOW).
    case queueOverflow = "inotify queue overflow"
    /// The daemon did not take events fast enough (the watcher's buffer filled).
    case bufferOverflow = "event buffer overflow"
    /// Watch descriptors were renumbered after many directories came and went.
    case watchTableCompacted = "watch table compacted"
    /// The watch limit left part of the root unwatched: it is re-listed periodically.
    case partlyUnwatched = "periodic rescan of a root the watch limit left partly unwatched"

    package var description: String { rawValue }
}
