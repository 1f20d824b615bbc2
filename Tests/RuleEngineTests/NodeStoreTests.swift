import SystemCalls
import TestSupport
import Testing

@testable import RuleEngine

/// The node store behind the tree: a file's stat packed in 24 bytes, a folder's listing found
/// through the same slot, both kept apart as nodes are added, turn into unreadable folders, are
/// removed and reclaimed, and their ids and listings reused.
@Suite struct NodeStoreTests {
    private static func status(inode: UInt64, size: Int64 = 10, modified: Int64 = 1, device: UInt64 = 7, kind: FileStatus.Kind = .regular)
        -> FileStatus
    {
        FileStatus(device: device, inode: inode, size: size, modifiedNanoseconds: modified, kind: kind, mode: 0o100644)
    }

    /// What is packed comes back: every kind, a full 16-bit mode, the largest size kept exactly.
    @Test func aPackedStatusKeepsWhatAChangeIsJudgedBy() {
        #expect(MemoryLayout<PackedStatus>.stride == 24)
        let kinds: [FileStatus.Kind] = [.regular, .directory, .symlink, .other]
        for (i, kind) in kinds.enumerated() {
            let size = i == 0 ? PackedStatus.largestSize : Int64(i)
            let p = PackedStatus(inode: .max, size: size, modified: -5, mode: 0o170777, device: 62, kind: kind)
            #expect(p.kind == kind && p.size == size && p.mode == 0o170777 && p.device == 62)
            #expect(p.inode == .max && p.modified == -5)
        }
    }

    /// A file of 1 TiB or more is kept as 1 TiB - 1 (there is no such image to judge); a write to
    /// it still moves its time, and that is a change.
    @Test func aSizeBeyondFortyBitsIsClampedAndItsChangesStillShow() {
        var store = NodeStore()
        let big = Self.status(inode: 1, size: 1 << 41)
        let id = store.add("huge.png", in: NodeStore.root, state: .file, status: big)
        #expect(store.status(id).key.size == PackedStatus.largestSize)
        let again = store.updateStatus(id, big)
        let newTime = store.updateStatus(id, Self.status(inode: 1, size: 1 << 41, modified: 2))
        let newSize = store.updateStatus(id, Self.status(inode: 1, size: 12, modified: 2))
        #expect(!again, "the same stat again is no change")
        #expect(newTime, "a new time is a change")
        #expect(newSize && store.status(id).key.size == 12, "a new size is a change")
    }

    /// A root spanning more devices than the index holds: the first 63 are told apart, the rest
    /// share one marker (the facts cache also keys by path).
    @Test func devicesBeyondTheIndexShareOneMarker() {
        var store = NodeStore()
        var ids: [NodeStore.ID] = []
        for device in 0..<70 {
            ids.append(
                store.add("f\(device)", in: NodeStore.root, state: .file, status: Self.status(inode: 1, device: UInt64(1000 + device))))
        }
        for (device, id) in ids.enumerated() {
            #expect(store.status(id).key.device == (device < 63 ? UInt64(1000 + device) : .max), "device \(device)")
        }
    }

    /// A link to a resource folder is added as a file and kept as an unreadable folder: it gets a
    /// listing (empty), not its link's stat; listed again, it is a folder with children.
    @Test func aFileTurnedIntoAnUnreadableFolderGetsAListing() {
        var store = NodeStore()
        let link = store.add("Set.imageset", in: NodeStore.root, state: .file, status: Self.status(inode: 3, kind: .symlink))
        store.setState(link, .unreadable)
        #expect(store.isDirectoryLike(link) && store.children(link).isEmpty && store.fileCount == 0)
        store.setState(link, .directory)
        let child = store.add("a.png", in: link, state: .file, status: Self.status(inode: 4))
        #expect(store.children(link) == [child] && store.lookup("Set.imageset/a.png") == child)
        #expect(store.status(child).key.inode == 4, "the child's stat is its own, not the folder's listing")
    }

    /// 5,000 random adds, removals, reclaims and folders going unreadable and back, checked after
    /// each step against a plain table of paths: every live path found with its id, each folder
    /// listing exactly its live children in name order, every file's stat as written.
    @Test func randomChangesMatchATableOfPaths() {
        var store = NodeStore()
        var model: [String: (id: NodeStore.ID, inode: UInt64?)] = ["": (NodeStore.root, nil)]
        var removed: [NodeStore.ID] = []
        var generator = SeededGenerator(seed: 30)
        var inode: UInt64 = 100
        for step in 0..<5_000 {
            let folders = model.filter { $0.value.inode == nil && store.state[Int($0.value.id)] != .unreadable }.keys.sorted()
            let folder = folders.randomElement(using: &generator)!
            let name = ["a", "b", "Icon.png", "c.appiconset", "é"].randomElement(using: &generator)!
            let path = folder.isEmpty ? name : folder + "/" + name
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4 where model[path] == nil:
                inode += 1
                let makeFolder = Bool.random(using: &generator)
                let id = store.add(
                    name, in: model[folder]!.id, state: makeFolder ? .directory : .file,
                    status: makeFolder ? nil : Self.status(inode: inode))
                model[path] = (id, makeFolder ? nil : inode)
            case 4..<7 where !path.isEmpty && model[path] != nil:
                for (p, entry) in model where p == path || p.hasPrefix(path + "/") {
                    store.markRemoved(entry.id)
                    removed.append(entry.id)
                    model[p] = nil
                }
            case 7 where model[folder]!.inode == nil && !folder.isEmpty:
                // A folder that cannot be listed any more: its children go first, as in the tree.
                let id = model[folder]!.id
                for (p, entry) in model where p.hasPrefix(folder + "/") {
                    store.markRemoved(entry.id)
                    removed.append(entry.id)
                    model[p] = nil
                }
                store.detachRemoved(from: id)
                store.setState(id, .unreadable)
            case 8:
                store.reclaim(removed)
                removed = []
            default:
                for (_, entry) in model where store.state[Int(entry.id)] == .unreadable { store.setState(entry.id, .directory) }
            }
            Self.expectStore(store, matches: model, step: step)
        }
    }

    private static func parentPath(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    private static func expectStore(_ store: NodeStore, matches model: [String: (id: NodeStore.ID, inode: UInt64?)], step: Int) {
        #expect(store.fileCount == model.values.filter { $0.inode != nil }.count, "step \(step)")
        for (path, entry) in model {
            #expect(store.lookup(path) == entry.id && store.path(entry.id) == path, "step \(step): \(path)")
            if let inode = entry.inode {
                #expect(store.status(entry.id).key.inode == inode, "step \(step): \(path)")
                continue
            }
            let live = store.children(entry.id).filter { store.isLive($0) }
            let expected = model.filter { $0.key != "" && parentPath($0.key) == path }
            let names = live.map { store.name($0) }
            #expect(Set(live) == Set(expected.map(\.value.id)), "step \(step): \(path)")
            #expect(names == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }, "step \(step): \(path)")
        }
    }
}
