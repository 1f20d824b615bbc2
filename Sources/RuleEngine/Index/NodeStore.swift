import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The storage behind `ResourceTree`: one node per file or directory, indexed by a 32-bit id.
/// A node keeps its own name (in one shared byte arena), its parent and, for a file, its stat;
/// a directory keeps, in the same slot, where its listing is: its children's ids sorted by name
/// bytes. No path is stored: a path is found by walking names from the root and rebuilt from
/// parents on demand, so each name's bytes are held once however deep the tree (measured in
/// c561342: "The compact index" of docs/performance.md then).
///
/// Removed nodes keep their name and parent until `reclaim` (so the engine can still name what a
/// change removed); only then is their id free for reuse.
struct NodeStore: Sendable {
    typealias ID = UInt32
    static let root: ID = 0

    enum State: UInt8, Sendable {
        case free, file, directory, unreadable, removed
    }

    /// Every name's UTF-8 bytes, back to back.
    private(set) var arena: [UInt8] = []
    private var nameStart: [UInt32] = []
    private var nameLength: [UInt16] = []
    private(set) var parent: [ID] = []
    private(set) var state: [State] = []
    /// A file's `lstat`, packed (24 bytes, not `FileStatus`'s 48: 2.6 MB less at 100k files);
    /// a folder's slot (directory or unreadable) holds the index of its listing instead.
    private var packed: [PackedStatus] = []
    /// The devices files live on (a root spans few): `PackedStatus.device` indexes this.
    private var devices: [UInt64] = []
    /// The folders' listings, each sorted by name bytes. Only folders have one: an array of
    /// listings per node was 8 bytes for each file too (0.8 MB at 100k files).
    private var listings: [[ID]] = []
    private var freeListings: [UInt32] = []
    private var freeIDs: [ID] = []
    /// Arena bytes of reclaimed nodes (compacted away when they outweigh the live names).
    private(set) var garbageBytes = 0
    private(set) var fileCount = 0

    init() {
        nameStart = [0]
        nameLength = [0]
        parent = [Self.root]
        state = [.directory]
        packed = [.listing(0)]
        listings = [[]]
    }

    var capacity: Int { state.count }

    func isLive(_ id: ID) -> Bool {
        let s = state[Int(id)]
        return s == .file || s == .directory || s == .unreadable
    }

    func isDirectoryLike(_ id: ID) -> Bool {
        let s = state[Int(id)]
        return s == .directory || s == .unreadable
    }

    /// A folder's children, sorted by name bytes (removed ones among them until detached); a
    /// file, or a node removed, has none.
    func children(_ id: ID) -> [ID] {
        isDirectoryLike(id) ? listings[packed[Int(id)].listing] : []
    }

    /// Where a folder's listing is (the node must be directory-like).
    private func listingIndex(_ dir: ID) -> Int {
        precondition(isDirectoryLike(dir), "only a folder has a listing")
        return packed[Int(dir)].listing
    }

    // MARK: - names and paths

    func name(_ id: ID) -> String {
        let start = Int(nameStart[Int(id)])
        return String(decoding: arena[start..<start + Int(nameLength[Int(id)])], as: UTF8.self)
    }

    /// `body` with a node's name as its bytes in the arena (the bytes of `name(_:)`), no String made.
    func withName<R>(_ id: ID, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = Int(nameStart[Int(id)])
        return arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<start + Int(nameLength[Int(id)])])) }
    }

    /// The root-relative path of a node (also of a removed one, until it is reclaimed).
    func path(_ id: ID) -> String {
        if id == Self.root { return "" }
        var chain: [ID] = []
        var length = -1
        var current = id
        while current != Self.root {
            chain.append(current)
            length += Int(nameLength[Int(current)]) + 1
            current = parent[Int(current)]
        }
        return String(unsafeUninitializedCapacity: length) { out in
            var at = 0
            arena.withUnsafeBufferPointer { bytes in
                for node in chain.reversed() {
                    if at > 0 {
                        out[at] = UInt8(ascii: "/")
                        at += 1
                    }
                    let start = Int(nameStart[Int(node)])
                    let count = Int(nameLength[Int(node)])
                    for i in 0..<count { out[at + i] = bytes[start + i] }
                    at += count
                }
            }
            return at
        }
    }

    /// Compares a node's name with bytes (-1, 0, 1), byte by byte.
    private func compare(_ id: ID, _ other: UnsafeBufferPointer<UInt8>) -> Int {
        let start = Int(nameStart[Int(id)])
        let count = Int(nameLength[Int(id)])
        return arena.withUnsafeBufferPointer { bytes in
            // memcmp compares unsigned bytes, as the order of the children is; the byte loop it
            // replaces was 5 % of a scan's instructions (names in a set share long prefixes).
            let n = min(count, other.count)
            if n > 0, let a = bytes.baseAddress, let b = other.baseAddress {
                let order = memcmp(a + start, b, n)
                if order != 0 { return order < 0 ? -1 : 1 }
            }
            return count == other.count ? 0 : (count < other.count ? -1 : 1)
        }
    }

    /// Compares two nodes' names, byte by byte.
    private func compareNodes(_ a: ID, _ b: ID) -> Int {
        let start = Int(nameStart[Int(b)])
        return arena.withUnsafeBufferPointer { bytes in
            compare(a, UnsafeBufferPointer(rebasing: bytes[start..<start + Int(nameLength[Int(b)])]))
        }
    }

    /// The slot of `name` among a directory's children: (index, whether that child has the name).
    private func position(in dir: ID, of name: UnsafeBufferPointer<UInt8>) -> (Int, Bool) {
        let list = children(dir)
        var low = 0
        var high = list.count
        while low < high {
            let mid = (low + high) / 2
            if compare(list[mid], name) < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, low < list.count && compare(list[low], name) == 0)
    }

    /// The live child of a directory with this name.
    func child(of dir: ID, named name: String) -> ID? {
        var name = name
        return name.withUTF8 { child(of: dir, bytes: $0) }
    }

    private func child(of dir: ID, bytes: UnsafeBufferPointer<UInt8>) -> ID? {
        let (i, found) = position(in: dir, of: bytes)
        if found {
            let id = children(dir)[i]
            return isLive(id) ? id : nil
        }
        // Names are compared as Strings are, under canonical equivalence (as APFS and Xcode
        // do): "é" written decomposed on disk is the "é" a Contents.json spells precomposed.
        // Only a name with a non-ASCII byte can have another spelling.
        guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        let wanted = String(decoding: bytes, as: UTF8.self)
        return children(dir).first { isLive($0) && name($0) == wanted }
    }

    /// The live node at a root-relative path ("" is the root): a walk of names, no hashing.
    func lookup(_ path: String) -> ID? {
        if path.isEmpty { return Self.root }
        return lookup(path, from: Self.root, skipping: 0)
    }

    /// The live node at `path`, whose first `skipping` bytes are the path of the live directory
    /// `base` and a "/": only the names after them are walked.
    func lookup(_ path: String, from base: ID, skipping: Int) -> ID? {
        var path = path
        return path.withUTF8 { bytes -> ID? in
            var current = base
            var start = skipping
            while true {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
                guard end > start, isDirectoryLike(current),
                    let next = child(of: current, bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                else { return nil }
                current = next
                if end == bytes.count { return current }
                start = end + 1
            }
        }
    }

    // MARK: - changes

    /// Adds a live child (replacing a removed one of the same name in the listing).
    @discardableResult
    mutating func add(_ name: String, in dir: ID, state newState: State, status newStatus: FileStatus?) -> ID {
        var name = name
        let slot = name.withUTF8 { position(in: dir, of: $0) }
        let id = allocate(name, parent: dir, state: newState, status: newStatus)
        let listing = listingIndex(dir)
        if slot.1 {
            let old = listings[listing][slot.0]
            precondition(!isLive(old), "a directory holds one child per name")
            listings[listing][slot.0] = id
        } else {
            listings[listing].insert(id, at: slot.0)
        }
        return id
    }

    /// Adds the children of a freshly listed directory in one pass (sorted once, not per insert).
    mutating func addChildren(_ list: [(name: String, status: FileStatus?)], in dir: ID) -> [ID] {
        precondition(children(dir).isEmpty, "only a directory without children is filled in bulk")
        var ids: [ID] = []
        ids.reserveCapacity(list.count)
        for (name, status) in list {
            ids.append(allocate(name, parent: dir, state: status == nil ? .directory : .file, status: status))
        }
        var sorted = ids
        sorted.sort { compareNodes($0, $1) < 0 }
        listings[listingIndex(dir)] = sorted
        return ids
    }

    private mutating func allocate(_ name: String, parent dir: ID, state newState: State, status newStatus: FileStatus?) -> ID {
        var name = name
        let start = UInt32(arena.count)
        name.withUTF8 { arena.append(contentsOf: $0) }
        let length = UInt16(truncatingIfNeeded: name.utf8.count)
        if newState == .file { fileCount += 1 }
        let hasListing = newState == .directory || newState == .unreadable
        let newPacked = hasListing ? .listing(newListing()) : newStatus.map { pack($0) } ?? PackedStatus.none
        if let id = freeIDs.popLast() {
            let i = Int(id)
            nameStart[i] = start
            nameLength[i] = length
            parent[i] = dir
            state[i] = newState
            packed[i] = newPacked
            return id
        }
        precondition(state.count < Int(UInt32.max), "more than 4 billion files and folders in one root")
        nameStart.append(start)
        nameLength.append(length)
        parent.append(dir)
        state.append(newState)
        packed.append(newPacked)
        return ID(state.count - 1)
    }

    /// An empty listing's index (a freed one first).
    private mutating func newListing() -> Int {
        if let index = freeListings.popLast() { return Int(index) }
        precondition(listings.count < Int(UInt32.max), "more than 4 billion folders in one root")
        listings.append([])
        return listings.count - 1
    }

    /// A file's status as the tree keeps it (a folder has none).
    func status(_ id: ID) -> TreeFileStatus {
        precondition(state[Int(id)] == .file, "only a file has a status")
        let p = packed[Int(id)]
        let device = p.device == PackedStatus.manyDevices ? UInt64.max : devices[Int(p.device)]
        return TreeFileStatus(
            key: FileKey(device: device, inode: p.inode, size: p.size, modifiedNanoseconds: p.modified), kind: p.kind, mode: p.mode)
    }

    /// Records a file's new status; false when it equals the one kept (nothing changed).
    mutating func updateStatus(_ id: ID, _ s: FileStatus) -> Bool {
        precondition(state[Int(id)] == .file, "only a file has a status")
        let new = pack(s)
        guard packed[Int(id)] != new else { return false }
        packed[Int(id)] = new
        return true
    }

    private mutating func pack(_ s: FileStatus) -> PackedStatus {
        let device: UInt8
        if let i = devices.firstIndex(of: s.device) {
            device = UInt8(i)
        } else if devices.count < Int(PackedStatus.manyDevices) {
            device = UInt8(devices.count)
            devices.append(s.device)
        } else {
            // 63 devices under one root: the rest share one marker (the facts cache also keys by
            // path, so keys stay distinct).
            device = PackedStatus.manyDevices
        }
        return PackedStatus(inode: s.inode, size: s.size, modified: s.modifiedNanoseconds, mode: s.mode, device: device, kind: s.kind)
    }

    /// Gives back the arrays' growth slack (up to half of each after a scan appended node by
    /// node: 1.5 MB at 100k files). Ids and contents do not change.
    mutating func trimCapacity() {
        func exact<T>(_ a: inout [T]) {
            guard a.capacity > a.count + a.count / 16 else { return }
            var copy: [T] = []
            copy.reserveCapacity(a.count)
            copy.append(contentsOf: a)
            a = copy
        }
        exact(&arena)
        exact(&nameStart)
        exact(&nameLength)
        exact(&parent)
        exact(&state)
        exact(&packed)
        exact(&listings)
    }

    /// A node's new state. A node that becomes a folder (a link to a resource folder is kept as
    /// an unreadable one) gets an empty listing in place of its status; an unreadable folder's
    /// listing is emptied; a folder removed gives its listing back (its children were removed
    /// first, and nothing lists a removed folder).
    mutating func setState(_ id: ID, _ s: State) {
        let i = Int(id)
        let old = state[i]
        if old == .file && s != .file { fileCount -= 1 }
        if old != .file && s == .file { fileCount += 1 }
        let had = isDirectoryLike(id)
        state[i] = s
        let has = isDirectoryLike(id)
        if has && !had {
            packed[i] = .listing(newListing())
        } else if had && !has {
            let listing = packed[i].listing
            listings[listing] = []
            freeListings.append(UInt32(listing))
            packed[i] = .none
        } else if s == .unreadable {
            listings[packed[i].listing] = []
        }
    }

    /// Marks a node removed (it stays in its parent's listing, not live, until `detachRemoved`).
    mutating func markRemoved(_ id: ID) { setState(id, .removed) }

    /// Drops removed and free children from a directory's listing: one pass.
    mutating func detachRemoved(from dir: ID) {
        guard isDirectoryLike(dir) else { return }
        let state = self.state
        listings[listingIndex(dir)].removeAll { id in
            let s = state[Int(id)]
            return !(s == .file || s == .directory || s == .unreadable)
        }
    }

    /// Frees removed nodes for reuse (they must be detached from their parents' listings first or
    /// here: their parents are detached in this call).
    mutating func reclaim(_ ids: [ID]) {
        var parents = Set<ID>()
        for id in ids where state[Int(id)] == .removed { parents.insert(parent[Int(id)]) }
        for p in parents where state[Int(p)] != .free { detachRemoved(from: p) }
        for id in ids where state[Int(id)] == .removed {
            let i = Int(id)
            garbageBytes += Int(nameLength[i])
            state[i] = .free
            nameLength[i] = 0
            freeIDs.append(id)
        }
        if garbageBytes > 65_536 && garbageBytes * 2 > arena.count { compactArena() }
    }

    /// Rewrites the arena with the names of nodes still in use (ids do not change).
    private mutating func compactArena() {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(arena.count - garbageBytes)
        for i in 0..<state.count where state[i] != .free {
            let start = Int(nameStart[i])
            nameStart[i] = UInt32(fresh.count)
            fresh.append(contentsOf: arena[start..<start + Int(nameLength[i])])
        }
        arena = fresh
        garbageBytes = 0
    }
}
