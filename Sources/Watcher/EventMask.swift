import CInotifyTools

/// inotify event bits, typed (no stringly-typed masks).
package struct EventMask: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let attrib = EventMask(rawValue: UInt32(IN_ATTRIB))
    package static let closeWrite = EventMask(rawValue: UInt32(IN_CLOSE_WRITE))
    package static let movedFrom = EventMask(rawValue: UInt32(IN_MOVED_FROM))
    package static let movedTo = EventMask(rawValue: UInt32(IN_MOVED_TO))
    package static let create = EventMask(rawValue: UInt32(IN_CREATE))
    package static let delete = EventMask(rawValue: UInt32(IN_DELETE))
    package static let deleteSelf = EventMask(rawValue: UInt32(IN_DELETE_SELF))
    package static let moveSelf = EventMask(rawValue: UInt32(IN_MOVE_SELF))
    package static let queueOverflow = EventMask(rawValue: UInt32(IN_Q_OVERFLOW))
    package static let ignored = EventMask(rawValue: UInt32(IN_IGNORED))
    package static let isDirectory = EventMask(rawValue: UInt32(IN_ISDIR))
    /// Watch flags (not events): fail unless the path is a directory; do not follow a link.
    package static let onlyDirectory = EventMask(rawValue: UInt32(IN_ONLYDIR))
    package static let dontFollow = EventMask(rawValue: UInt32(IN_DONT_FOLLOW))

    /// The watched mask. Never IN_OPEN / IN_ACCESS: the daemon's own reads must not cause work.
    package static let watched: EventMask = [.closeWrite, .create, .delete, .deleteSelf, .moveSelf, .movedFrom, .movedTo, .attrib]
}
