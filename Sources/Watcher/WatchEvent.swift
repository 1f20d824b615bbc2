/// What the watcher tells its consumer. Paths are absolute.
public enum WatchEvent: Sendable, Hashable {
    /// Something at this path changed (created, written, deleted, attributes, renamed from/to).
    case changed(root: String, path: String)
    /// Events were lost for this root (queue overflow, unpaired move, consumer too slow): rescan it.
    case rescan(root: String, reason: String)
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
