import Dispatch
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's index of a watched root: every directory's entries and every file's stat, minus
/// excluded build outputs. Kept up to date incrementally by `refresh(_:)`.
public struct ResourceTree: Sendable {
    /// Build outputs and archive metadata (`__MACOSX`: a zip's AppleDouble files), never resources.
    public static let defaultExcludes: Set<String> = [".git", "DerivedData", "build", "node_modules", "Pods", "__MACOSX"]

    public let root: String
    public let excludes: Set<String>
    /// Directory (root-relative, "" = root) → its entries, sorted by name.
    public private(set) var directories: [String: [DirectoryEntry]] = [:]
    /// File (root-relative) → its stat.
    public private(set) var files: [String: FileStatus] = [:]
    /// Directories that could not be listed, with why.
    public private(set) var unreadable: [String: SystemError] = [:]
    /// Names removed from listings during a batch of refreshes, applied in one pass per folder by
    /// `finishBatch()` (removing 50,000 files one by one from a sorted array was quadratic).
    private var pendingRemovals: [String: Set<String>] = [:]

    /// The root with its links resolved: a file link must lead inside it to be read.
    public let realRoot: String?

    public init(root: String, excludes: Set<String> = ResourceTree.defaultExcludes) {
        self.root = root
        self.excludes = excludes
        self.realRoot = FileSystem.realPath(root)
    }

    /// The absolute path to read a file's content from, or why it must not be read: not in the
    /// tree, or a symbolic link whose target leaves the checked root (a Contents.json linked to
    /// /etc/shadow is not parsed, and nothing of it reaches a message).
    public func contentPath(_ path: String) -> Result<String, SystemError> {
        let abs = absolute(path)
        guard let status = files[path] else { return .failure(SystemError(call: "open", path: abs, errno: ENOENT)) }
        guard status.kind == .symlink else { return .success(abs) }
        guard let target = FileSystem.realPath(abs) else {
            return .failure(SystemError(call: "open", path: abs, errno: ENOENT, detail: "a symbolic link whose target does not exist"))
        }
        guard let realRoot, target == realRoot || target.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") else {
            return .failure(
                SystemError(
                    call: "open", path: abs, errno: EACCES, detail: "a symbolic link that leads outside the checked root: not read"))
        }
        return .success(target)
    }

    public func absolute(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    /// The tree's own copy of a path when it holds it (the same string storage), else the path.
    /// Indexes that keep paths (subjects, evaluation inputs) store this copy, so a path's bytes
    /// are held once however many indexes name it.
    public func interned(_ path: String) -> String {
        if let i = files.index(forKey: path) { return files.keys[i] }
        if let i = directories.index(forKey: path) { return directories.keys[i] }
        return path
    }

    public func isDirectory(_ path: String) -> Bool { directories[path] != nil || unreadable[path] != nil }
    public func contains(_ path: String) -> Bool { files[path] != nil || isDirectory(path) }

    public func entries(of directory: String) -> Result<[DirectoryEntry], SystemError> {
        if let e = directories[directory] { return .success(e) }
        if let err = unreadable[directory] { return .failure(err) }
        return .failure(SystemError(call: "opendir", path: absolute(directory), errno: 2))
    }

    /// True when any component of the path is an excluded name.
    public func isExcluded(_ path: String) -> Bool {
        path.split(separator: "/").contains { isExcludedName(String($0)) }
    }

    public func isExcludedName(_ name: String) -> Bool {
        excludes.contains(name)
    }

    /// What changed in the index after a refresh.
    public struct Change: Sendable {
        public var added: [String] = []
        public var removed: [String] = []
        /// Files whose stat (content or permissions) changed.
        public var modified: [String] = []
        /// Directories whose listing changed.
        public var listings: Set<String> = []
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && modified.isEmpty && listings.isEmpty }
        mutating func merge(_ o: Change) {
            added += o.added
            removed += o.removed
            modified += o.modified
            listings.formUnion(o.listings)
        }
    }

    /// Full scan of the root.
    public mutating func scanAll() -> Change {
        var change = Change()
        directories = [:]
        files = [:]
        unreadable = [:]
        // Level by level: every directory of a level is listed (and its files stat'ed) on all
        // cores, then merged here in listing order.
        var level = [""]
        while !level.isEmpty {
            let listed = Self.list(level, under: self)
            var next: [String] = []
            for (dir, result) in zip(level, listed) {
                change.listings.insert(dir)
                switch result {
                case .failure(let error):
                    unreadable[dir] = error
                case .success(let (entries, children)):
                    directories[dir] = entries
                    for (child, status) in children {
                        change.added.append(child)
                        if let status { files[child] = status } else { next.append(child) }
                    }
                }
            }
            level = next
        }
        return change
    }

    /// One directory listed: its entries, and each child with its `lstat` (nil: a directory to
    /// descend into; a child that vanished meanwhile is left out).
    typealias Listed = Result<([DirectoryEntry], [(String, FileStatus?)]), SystemError>

    private static func list(_ dirs: [String], under tree: ResourceTree) -> [Listed] {
        let one: @Sendable (String) -> Listed = { dir in
            let all: [DirectoryEntry]
            do throws(SystemError) { all = try FileSystem.listDirectory(tree.absolute(dir)) } catch { return .failure(error) }
            let entries = all.filter { !tree.isExcludedName($0.name) }
            var children: [(String, FileStatus?)] = []
            children.reserveCapacity(entries.count)
            for entry in entries {
                let child = RelativePath.join(dir, entry.name)
                if entry.isDirectory {
                    children.append((child, nil))
                } else if let s = try? FileSystem.status(tree.absolute(child)) {
                    children.append((child, s.kind == .directory ? nil : s))
                }
            }
            return .success((entries, children))
        }
        // A few directories: here; many: on every core.
        guard dirs.count > 4 else { return dirs.map(one) }
        let results = Mutex([Listed?](repeating: nil, count: dirs.count))
        DispatchQueue.concurrentPerform(iterations: dirs.count) { i in
            let r = one(dirs[i])
            results.withLock { $0[i] = r }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// Brings `path` (and, for a directory, its listing; for a new directory, its whole subtree) up to date.
    public mutating func refresh(_ path: String) -> Change {
        var change = Change()
        if path.isEmpty {
            relist("", into: &change)
            return change
        }
        if isExcluded(path) { return change }
        let parent = RelativePath.parent(path)
        if !isDirectory(parent) {
            // An ancestor appeared: refresh from the nearest known directory down.
            return refresh(parent)
        }
        let status = try? FileSystem.status(absolute(path))
        switch status?.kind {
        case nil:
            if contains(path) {
                remove(path, into: &change)
                change.listings.insert(parent)
                removeFromListing(parent, name: RelativePath.name(path))
            }
        case .directory?:
            if files[path] != nil {
                remove(path, into: &change)
            }
            if isDirectory(path) {
                relist(path, into: &change)
            } else {
                addToListing(parent, DirectoryEntry(name: RelativePath.name(path), isDirectory: true))
                change.listings.insert(parent)
                change.added.append(path)
                scanDirectory(path, into: &change)
            }
        case let kind?:
            _ = kind
            if isDirectory(path) {
                remove(path, into: &change)
                removeFromListing(parent, name: RelativePath.name(path))
            }
            let s = status!
            if let old = files[path] {
                if old != s {
                    files[path] = s
                    change.modified.append(path)
                }
            } else {
                files[path] = s
                addToListing(parent, DirectoryEntry(name: RelativePath.name(path), isDirectory: false))
                change.listings.insert(parent)
                change.added.append(path)
            }
        }
        return change
    }

    // MARK: - internals

    private mutating func scanDirectory(_ dir: String, into change: inout Change) {
        let entries: [DirectoryEntry]
        do {
            entries = try FileSystem.listDirectory(absolute(dir)).filter { !isExcludedName($0.name) }
        } catch {
            unreadable[dir] = error
            directories[dir] = nil
            change.listings.insert(dir)
            return
        }
        unreadable[dir] = nil
        directories[dir] = entries
        change.listings.insert(dir)
        for entry in entries {
            let child = RelativePath.join(dir, entry.name)
            if entry.isDirectory {
                change.added.append(child)
                scanDirectory(child, into: &change)
            } else if let s = try? FileSystem.status(absolute(child)) {
                if s.kind == .directory {
                    change.added.append(child)
                    scanDirectory(child, into: &change)
                } else {
                    files[child] = s
                    change.added.append(child)
                }
            }
        }
    }

    /// Re-lists a known directory and reconciles its direct children.
    private mutating func relist(_ dir: String, into change: inout Change) {
        let old = Set(directories[dir]?.map(\.name) ?? [])
        let fresh: [DirectoryEntry]
        do {
            fresh = try FileSystem.listDirectory(absolute(dir)).filter { !isExcludedName($0.name) }
        } catch {
            if unreadable[dir] == nil {
                for name in old { remove(RelativePath.join(dir, name), into: &change) }
                unreadable[dir] = error
                directories[dir] = nil
                change.listings.insert(dir)
            }
            return
        }
        if unreadable[dir] != nil {
            unreadable[dir] = nil
            directories[dir] = []
            change.listings.insert(dir)
        }
        let freshNames = Set(fresh.map(\.name))
        for name in old.subtracting(freshNames) {
            remove(RelativePath.join(dir, name), into: &change)
            removeFromListing(dir, name: name)
            change.listings.insert(dir)
        }
        for entry in fresh {
            let child = RelativePath.join(dir, entry.name)
            if !old.contains(entry.name) {
                change.merge(refresh(child))
            } else if !entry.isDirectory {
                change.merge(refresh(child))  // picks up content changes
            }
        }
    }

    private mutating func remove(_ path: String, into change: inout Change) {
        if files.removeValue(forKey: path) != nil {
            change.removed.append(path)
            return
        }
        if let entries = directories[path] {
            for e in entries { remove(RelativePath.join(path, e.name), into: &change) }
        }
        if directories.removeValue(forKey: path) != nil || unreadable.removeValue(forKey: path) != nil {
            change.removed.append(path)
            change.listings.insert(path)
        }
    }

    // Listings stay sorted by name; an update is a binary search (O(log n) comparisons) and one
    // move, in place: adding 50,000 files to one folder no longer compares every name each time.
    private mutating func addToListing(_ dir: String, _ entry: DirectoryEntry) {
        let i = Self.position(of: entry.name, in: directories[dir] ?? [])
        if directories[dir] == nil { directories[dir] = [] }
        if i < directories[dir]!.count, directories[dir]![i].name == entry.name {
            directories[dir]![i] = entry
        } else {
            directories[dir]!.insert(entry, at: i)
        }
    }

    private mutating func removeFromListing(_ dir: String, name: String) {
        guard directories[dir] != nil else { return }
        pendingRemovals[dir, default: []].insert(name)
    }

    /// Applies the listing removals of a batch of `refresh` calls: one pass per folder touched.
    public mutating func finishBatch() {
        for (dir, names) in pendingRemovals where directories[dir] != nil {
            // A name removed and added again within the batch stays.
            let gone = names.filter { files[RelativePath.join(dir, $0)] == nil && !isDirectory(RelativePath.join(dir, $0)) }
            if !gone.isEmpty { directories[dir]!.removeAll { gone.contains($0.name) } }
        }
        pendingRemovals = [:]
    }

    /// The first index whose name is not below `name` (listings are sorted by name).
    static func position(of name: String, in entries: [DirectoryEntry]) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].name < name { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
