import SystemCalls

/// What the tree keeps of a file's `lstat`: the content's identity (the facts cache's key), the
/// kind (a symbolic link is resolved before reading) and the mode (a `chmod 000` is a change:
/// the file can no longer be read). Owner and group are not kept.
public struct TreeFileStatus: Sendable, Equatable {
    public let key: FileKey
    public let kind: FileStatus.Kind
    public let mode: UInt32
}

/// A file's `lstat` as a node keeps it, in 24 bytes: the inode, the modification time, and one
/// word of size (40 bits: sizes from 1 TiB up are kept as 1 TiB - 1; the time still tells such a
/// file's changes), mode (16 bits: all of Linux's `st_mode`), device (6 bits: an index into the
/// store's devices) and kind (2 bits). A folder's slot keeps its listing's index in `inode`.
struct PackedStatus: Sendable, Equatable {
    static let manyDevices: UInt8 = 63
    static let largestSize: Int64 = (1 << 40) - 1
    static let none = PackedStatus(inode: 0, size: 0, modified: 0, mode: 0, device: 0, kind: .directory)

    let inode: UInt64
    let modified: Int64
    /// size << 24 | mode << 8 | device << 2 | kind
    private let word: UInt64

    init(inode: UInt64, size: Int64, modified: Int64, mode: UInt32, device: UInt8, kind: FileStatus.Kind) {
        self.inode = inode
        self.modified = modified
        let kindBits: UInt64
        switch kind {
        case .regular: kindBits = 0
        case .directory: kindBits = 1
        case .symlink: kindBits = 2
        case .other: kindBits = 3
        }
        let clamped = UInt64(min(max(size, 0), Self.largestSize))
        word = clamped << 24 | UInt64(mode & 0xFFFF) << 8 | UInt64(min(device, Self.manyDevices)) << 2 | kindBits
    }

    /// A folder's slot: where its listing is.
    static func listing(_ index: Int) -> PackedStatus {
        PackedStatus(inode: UInt64(index), size: 0, modified: 0, mode: 0, device: 0, kind: .directory)
    }

    var listing: Int { Int(inode) }
    var size: Int64 { Int64(word >> 24) }
    var mode: UInt32 { UInt32(truncatingIfNeeded: word >> 8) & 0xFFFF }
    var device: UInt8 { UInt8(truncatingIfNeeded: word >> 2) & 0x3F }
    var kind: FileStatus.Kind {
        switch word & 3 {
        case 0: .regular
        case 1: .directory
        case 2: .symlink
        default: .other
        }
    }
}
