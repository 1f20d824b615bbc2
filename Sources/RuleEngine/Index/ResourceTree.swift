import Dispatch
import RuleKit
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's index of a watched root: every directory's entries and every file's stat, minus
/// excluded build outputs, kept up to date incrementally by `refresh(_:)`. Stored compactly in a
/// `NodeStore` (ids, a name arena, no path strings); paths are the API.
public struct ResourceTree: Sendable {
    public typealias NodeID = UInt32
    /// Build outputs and archive metadata (`__MACOSX`: a zip's AppleDouble files), never resources.
    public static let defaultExcludes = Set([".git", "DerivedData", "build", "__MACOSX"]).union(vendored)
    /// Other projects' code and build products (CocoaPods, npm, Carthage, docsets): left out like
    /// build folders, but said (`project.left-out`); `check --all-files` judges them.
    public static let vendored: Set<String> = ["Pods", "node_modules", "Carthage", "*.docset"]
    /// Prebuilt frameworks: walked (the app embeds them, and a listed SDK's privacy manifest is
    /// judged), but what is inside is another project's build product, not judged as the app's
    /// (the engine leaves it out); noted with the vendored folders.
    public static let prebuiltBundles = ExcludedNames(["*.framework", "*.xcframework"])

    public let root: String
    public let excludes: Set<String>
    /// `excludes` as the walk matches them (names, and `*.x` endings).
    let excluded: ExcludedNames
    /// Vendored folders the walk left out, by the folder that holds them (`vendoredFolders`).
    private(set) var vendoredChildren: [NodeID: [String]] = [:]
    /// Counts changes to `vendoredChildren` (the engine re-says what it left out when it moves).
    private(set) var vendoredGeneration = 0
    private(set) var nodes = NodeStore()
    /// Directories that could not be listed, with why.
    var unreadableErrors: [NodeID: SystemError] = [:]
    /// Directories whose listing lost children during a batch of refreshes, detached in one pass
    /// per folder by `finishBatch()` (removing 50,000 files one by one was quadratic).
    private var pendingDetach: Set<NodeID> = []

    /// The root with its links resolved: a file link must lead inside it to be read.
    public let realRoot: String?

    public init(root: String, excludes: Set<String> = ResourceTree.defaultExcludes) {
        self.root = root
        self.excludes = excludes
        self.excluded = ExcludedNames(excludes)
        self.realRoot = FileSystem.realPath(root)
    }

    // MARK: - changes

    /// What changed in the index after a refresh.
    public struct Change: Sendable {
        public var added: [String] = []
        public var removed: [String] = []
        /// Files whose stat (content or permissions) changed.
        public var modified: [String] = []
        /// Directories whose listing changed.
        public var listings: Set<String> = []
        /// The nodes removed: still named (`path(of:)`) until `reclaim` frees them.
        public var removedNodes: [NodeID] = []
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && modified.isEmpty && listings.isEmpty }
        mutating func merge(_ o: Change) {
            added += o.added
            removed += o.removed
            modified += o.modified
            listings.formUnion(o.listings)
            removedNodes += o.removedNodes
        }
    }

    /// Full scan of the root. `reportAdded: false` leaves the (100k-path) list of added paths
    /// out of the change when the caller re-derives everything anyway.
    @discardableResult
    public mutating func scanAll(reportAdded: Bool = true) -> Change {
        var change = Change()
        nodes = NodeStore()
        unreadableErrors = [:]
        pendingDetach = []
        vendoredChildren = [:]
        vendoredGeneration += 1
        // Level by level: every directory of a level is listed (and its files stat'ed) on all
        // cores, then merged here in listing order.
        var level: [(NodeID, String)] = [(NodeStore.root, "")]
        while !level.isEmpty {
            let listed = Self.list(level.map(\.1), under: self)
            var next: [(NodeID, String)] = []
            for ((dir, path), result) in zip(level, listed) {
                change.listings.insert(path)
                switch result {
                case .failure(let error):
                    nodes.setState(dir, .unreadable)
                    unreadableErrors[dir] = error
                case .success(let (children, vendored)):
                    note(vendored, in: dir)
                    let ids = nodes.addChildren(children, in: dir)
                    for (id, child) in zip(ids, children) {
                        // A file's path is built only when it is reported (`check` does not).
                        guard reportAdded || child.status == nil || child.status?.kind == .symlink else { continue }
                        let childPath = RelativePath.join(path, child.name)
                        if reportAdded { change.added.append(childPath) }
                        if child.status == nil { next.append((id, childPath)) }
                        if let error = linkedResourceFolder(child.name, child.status, absolute: absolute(childPath)) {
                            markLinkedFolder(id, error)
                            change.listings.insert(childPath)
                        }
                    }
                }
            }
            level = next
        }
        nodes.trimCapacity()
        return change
    }

    /// One directory listed: each child with its `lstat` (nil: a directory to descend into; a
    /// child that vanished meanwhile is left out).
    typealias Listed = Result<(children: [(name: String, status: FileStatus?)], vendored: [String]), SystemError>

    private static func list(_ dirs: [String], under tree: ResourceTree) -> [Listed] {
        let one: @Sendable (String) -> Listed = { dir in
            let all: [(name: String, status: FileStatus?)]
            do throws(SystemError) { all = try FileSystem.listDirectoryWithStatus(tree.absolute(dir)) } catch { return .failure(error) }
            return .success(tree.split(all))
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

    /// reswatch does not follow links to folders: inotify does not watch through them, so the daemon
    /// could not keep what is inside current. A link named as a resource folder (an asset set, a
    /// catalog, a `.lproj`, `Settings.bundle`, an Icon Composer `.icon`) that leads to a folder is kept as a folder that
    /// cannot be read: `io.unreadable` says it was not checked, and its name still counts (a set
    /// that Info.plist names exists). Links under other names are files, as before.
    func linkedResourceFolder(_ name: String, _ status: FileStatus?, absolute path: @autoclosure () -> String) -> SystemError? {
        // A vendored framework linked in (Carthage, a monorepo) is not a resource folder reswatch judges inside.
        guard let status, status.kind == .symlink,
            let kind = SubjectClassifier.kind(name: name, isDirectory: true, parentIsAssetSet: false), kind != .framework,
            (try? FileSystem.statusFollowingLinks(path()))?.kind == .directory
        else { return nil }
        return SystemError(
            call: "open", path: path(), errno: EINVAL,
            detail: "a symbolic link to a folder, which reswatch does not follow: check the folder it leads to, or make this a real folder")
    }

    /// Marks a node just added for a link to a resource folder (see `linkedResourceFolder`).
    private mutating func markLinkedFolder(_ id: NodeID, _ error: SystemError) {
        nodes.setState(id, .unreadable)
        unreadableErrors[id] = error
    }

    /// Brings `path` (and, for a directory, its listing; for a new directory, its whole subtree) up to date.
    public mutating func refresh(_ path: String) -> Change {
        var change = Change()
        if path.isEmpty {
            relist(NodeStore.root, "", into: &change)
            return change
        }
        if isExcluded(path) { return change }
        let parentPath = RelativePath.parent(path)
        guard let parent = nodes.lookup(parentPath), nodes.state[Int(parent)] == .directory else {
            // An ancestor appeared, or went (its removal already took everything below), or cannot
            // be listed: refresh the first component below the deepest listed folder, found in
            // one walk (walking up one level at a time was quadratic in the depth per event:
            // a 1,500-level tree removed bottom-up kept the engine busy for minutes).
            let (known, firstUnknown) = deepestListedAncestor(of: path)
            if let firstUnknown { return refresh(firstUnknown) }
            return known == path ? change : refresh(known)
        }
        let name = RelativePath.name(path)
        var existing = nodes.child(of: parent, named: name)
        let status: FileStatus?
        do {
            status = try FileSystem.status(absolute(path))
        } catch  where error.isPermissionDenied {
            // Not gone, but not visible (a folder above lost search permission): the parent is
            // refreshed (up to the first folder that can be looked up), and its listing says it
            // cannot be read, rather than the file counting as removed. The parent's path is
            // shorter, and a folder that can be looked up and searched gives no EACCES below it.
            return refresh(parentPath)
        } catch {
            status = nil
        }
        switch status?.kind {
        case nil:
            if let existing {
                remove(existing, path, into: &change)
                change.listings.insert(parentPath)
            }
        case .directory?:
            if let id = existing, nodes.state[Int(id)] == .file {
                remove(id, path, into: &change)
                existing = nil
            }
            if let existing {
                relist(existing, path, into: &change)
            } else {
                let id = nodes.add(name, in: parent, state: .directory, status: nil)
                change.listings.insert(parentPath)
                change.added.append(path)
                scanDirectory(id, path, into: &change)
            }
        case .some:
            let s = status!
            if let error = linkedResourceFolder(name, s, absolute: absolute(path)) {
                if let id = existing, nodes.state[Int(id)] == .unreadable, unreadableErrors[id] == error { return change }
                if let id = existing { remove(id, path, into: &change) }
                markLinkedFolder(nodes.add(name, in: parent, state: .file, status: s), error)
                change.listings.insert(parentPath)
                change.listings.insert(path)
                change.added.append(path)
                return change
            }
            if let id = existing, nodes.isDirectoryLike(id) {
                remove(id, path, into: &change)
                existing = nil
            }
            if let id = existing {
                if nodes.updateStatus(id, s) {
                    change.modified.append(path)
                }
            } else {
                nodes.add(name, in: parent, state: .file, status: s)
                change.listings.insert(parentPath)
                change.added.append(path)
            }
        }
        return change
    }

    /// Detaches the listing removals of a batch of `refresh` calls: one pass per folder touched.
    public mutating func finishBatch() {
        for dir in pendingDetach { nodes.detachRemoved(from: dir) }
        pendingDetach = []
    }

    /// Frees the ids of removed nodes once nothing refers to them any more.
    public mutating func reclaim(_ removed: [NodeID]) {
        finishBatch()
        nodes.reclaim(removed)
    }

    // MARK: - internals

    /// The deepest ancestor of `path` that is a listed folder (walking names down from the root),
    /// and the path one component below it, if that is not `path`'s parent's child already.
    private func deepestListedAncestor(of path: String) -> (known: String, firstUnknown: String?) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        var current = NodeStore.root
        var known = ""
        for (i, part) in parts.dropLast().enumerated() {
            guard nodes.state[Int(current)] == .directory, let next = nodes.child(of: current, named: String(part)),
                nodes.state[Int(next)] == .directory
            else {
                // `parts[i]` is the first component not listed below `known`.
                return (known, nodes.state[Int(current)] == .directory ? RelativePath.join(known, String(part)) : nil)
            }
            current = next
            known = RelativePath.join(known, String(parts[i]))
        }
        return (known, nil)
    }

    /// Lists a new folder and everything below it (iteratively: depth is no limit).
    private mutating func scanDirectory(_ top: NodeID, _ topPath: String, into change: inout Change) {
        var stack: [(NodeID, String)] = [(top, topPath)]
        while let (dir, path) = stack.popLast() {
            change.listings.insert(path)
            let entries: [(name: String, status: FileStatus?)]
            do {
                let listed = split(try FileSystem.listDirectoryWithStatus(absolute(path)))
                note(listed.vendored, in: dir)
                entries = listed.children
            } catch {
                nodes.setState(dir, .unreadable)
                unreadableErrors[dir] = error
                continue
            }
            for entry in entries {
                let child = RelativePath.join(path, entry.name)
                change.added.append(child)
                if let error = linkedResourceFolder(entry.name, entry.status, absolute: absolute(child)) {
                    markLinkedFolder(nodes.add(entry.name, in: dir, state: .file, status: entry.status), error)
                    change.listings.insert(child)
                } else if let status = entry.status {
                    nodes.add(entry.name, in: dir, state: .file, status: status)
                } else {
                    stack.append((nodes.add(entry.name, in: dir, state: .directory, status: nil), child))
                }
            }
        }
    }

    /// Re-lists a known directory and reconciles its direct children.
    private mutating func relist(_ dir: NodeID, _ path: String, into change: inout Change) {
        // With each entry's stat: a folder listed but not searchable is unreadable, not empty.
        let fresh: [(name: String, status: FileStatus?)]
        do {
            let listed = split(try FileSystem.listDirectoryWithStatus(absolute(path)))
            note(listed.vendored, in: dir)
            fresh = listed.children
        } catch {
            if nodes.state[Int(dir)] != .unreadable {
                for child in nodes.children(dir) where nodes.isLive(child) {
                    remove(child, RelativePath.join(path, nodes.name(child)), into: &change)
                }
                finishBatch()
                nodes.setState(dir, .unreadable)
                unreadableErrors[dir] = error
                change.listings.insert(path)
            }
            return
        }
        if nodes.state[Int(dir)] == .unreadable {
            nodes.setState(dir, .directory)
            unreadableErrors[dir] = nil
            change.listings.insert(path)
        }
        let freshNames = Set(fresh.map(\.name))
        for child in nodes.children(dir) where nodes.isLive(child) {
            let name = nodes.name(child)
            if !freshNames.contains(name) {
                remove(child, RelativePath.join(path, name), into: &change)
                change.listings.insert(path)
            }
        }
        for entry in fresh {
            if let child = nodes.child(of: dir, named: entry.name) {
                // A file that is still a file (no link): the listing's lstat is the one `refresh`
                // would take again, and what it would do with it. Refreshing each file stat'ed it
                // a second time by its absolute path and split that path to test its folders for
                // exclusion: half of a rescan's system calls and most of its CPU.
                if nodes.state[Int(child)] == .file, let status = entry.status, status.kind != .symlink {
                    if nodes.updateStatus(child, status) { change.modified.append(RelativePath.join(path, entry.name)) }
                    continue
                }
                // Files for their content; a kind that changed (file ↔ folder) is re-read whole.
                if nodes.state[Int(child)] == .file || (entry.status == nil) != nodes.isDirectoryLike(child) {
                    change.merge(refresh(RelativePath.join(path, entry.name)))
                }
            } else {
                change.merge(refresh(RelativePath.join(path, entry.name)))
            }
        }
    }

    /// Marks a node and everything below it removed; their paths and ids go into the change
    /// (iteratively: depth is no limit; children before their folder, as before).
    private mutating func remove(_ top: NodeID, _ topPath: String, into change: inout Change) {
        var stack: [(id: NodeID, path: String, expanded: Bool)] = [(top, topPath, false)]
        while let (id, path, expanded) = stack.popLast() {
            if nodes.isDirectoryLike(id) && !expanded {
                stack.append((id, path, true))
                for child in nodes.children(id).reversed() where nodes.isLive(child) {
                    stack.append((child, RelativePath.join(path, nodes.name(child)), false))
                }
                continue
            }
            if nodes.isDirectoryLike(id) {
                change.listings.insert(path)
                unreadableErrors[id] = nil
                note([], in: id)
            }
            change.removed.append(path)
            change.removedNodes.append(id)
            nodes.markRemoved(id)
            pendingDetach.insert(nodes.parent[Int(id)])
        }
    }

    /// A listing without its excluded entries, and the names of the vendored folders among those.
    func split(_ all: [(name: String, status: FileStatus?)]) -> (
        children: [(name: String, status: FileStatus?)], vendored: [String]
    ) {
        var vendored: [String] = []
        let kept = all.filter { entry in
            guard isExcludedName(entry.name) else {
                if entry.status == nil, Self.prebuiltBundles.contains(entry.name) { vendored.append(entry.name) }
                return true
            }
            if entry.status == nil, Self.vendoredNames.contains(entry.name) { vendored.append(entry.name) }
            return false
        }
        return (kept, vendored)
    }

    /// Records the vendored folders a folder's latest listing left out.
    private mutating func note(_ vendored: [String], in dir: NodeID) {
        let old = vendoredChildren[dir] ?? []
        guard old != vendored else { return }
        vendoredChildren[dir] = vendored.isEmpty ? nil : vendored
        vendoredGeneration += 1
    }
}
