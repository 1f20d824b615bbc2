import CInotifyTools

/// inotify event bits, typed (no stringly-typed masks).
public struct EventMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let attrib = EventMask(rawValue: UInt32(IN_ATTRIB))
    public static let closeWrite = EventMask(rawValue: UInt32(IN_CLOSE_WRITE))
    public static let movedFrom = EventMask(rawValue: UInt32(IN_MOVED_FROM))
    public static let movedTo = EventMask(rawValue: UInt32(IN_MOVED_TO))
    public static let create = EventMask(rawValue: UInt32(IN_CREATE))
    public static let delete = EventMask(rawValue: UInt32(IN_DELETE))
    public static let deleteSelf = EventMask(rawValue: UInt32(IN_DELETE_SELF))
    public static let moveSelf = EventMask(rawValue: UInt32(IN_MOVE_SELF))
    public static let queueOverflow = EventMask(rawValue: UInt32(IN_Q_OVERFLOW))
    public static let ignored = EventMask(rawValue: UInt32(IN_IGNORED))
    public static let isDirectory = EventMask(rawValue: UInt32(IN_ISDIR))

    /// The watched mask. Never IN_OPEN / IN_ACCESS: the daemon's own reads must not cause work.
    public static let watched: EventMask = [.closeWrite, .create, .delete, .deleteSelf, .moveSelf, .movedFrom, .movedTo, .attrib]
}
