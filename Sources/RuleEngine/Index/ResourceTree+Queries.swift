import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// What the index knows: paths, nodes, statuses, listings and exclusions.
extension ResourceTree {
    /// The absolute path to read a file's content from, or why it must not be read: not in the
    /// tree, or a symbolic link whose target leaves the checked root (a Contents.json linked to
    /// /etc/shadow is not parsed, and nothing of it reaches a message).
    public func contentPath(_ path: String) -> Result<String, SystemError> {
        guard let status = status(of: path) else { return .failure(SystemError(call: "open", path: absolute(path), errno: ENOENT)) }
        return contentPath(path, status: status)
    }

    /// `contentPath(_:)` for a caller that has just looked the file's status up.
    public func contentPath(_ path: String, status: TreeFileStatus) -> Result<String, SystemError> {
        let abs = absolute(path)
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

    /// `root + "/" + path`, written once at its final size: every image and Contents.json an
    /// evaluation reads asks for it, and the two appends cost 1,300 instructions (2.8 % of a check).
    public func absolute(_ path: String) -> String { Self.absolute(path, root: root) }

    /// `absolute(_:)` for a caller holding only the root: one lent the tree by a class's stored
    /// property got a copy of the whole tree for each method call on it (its buffers retained,
    /// then released), and reading `tree.root` copies nothing else.
    public static func absolute(_ path: String, root: String) -> String {
        path.isEmpty ? root : (root.isEmpty ? "/" + path : RelativePath.join(root, path))
    }

    /// The node at a root-relative path, if the tree holds it.
    public func node(_ path: String) -> NodeID? { nodes.lookup(path) }

    /// A folder of the tree and its node, from which the paths below it are found by walking
    /// only their own names (an evaluation's reads are mostly in its subject's folder: a full
    /// walk from the root for each was 7 % of a check's instructions).
    public struct Anchor: Sendable {
        let path: String
        let node: NodeID
    }

    /// The anchor for a live folder, given its node (nil for the root, or a node that is no folder).
    public func anchor(_ node: NodeID) -> Anchor? {
        guard node != NodeStore.root, nodes.isDirectoryLike(node) else { return nil }
        return Anchor(path: nodes.path(node), node: node)
    }

    /// `node(_:)`, walking from `anchor` when `path` is below it.
    public func node(_ path: String, from anchor: Anchor?) -> NodeID? {
        guard let anchor else { return nodes.lookup(path) }
        let length = anchor.path.utf8.count
        let below = RelativePath.withBytes(of: path) { p in
            RelativePath.withBytes(of: anchor.path) { a in
                p.count > length + 1 && p[length] == UInt8(ascii: "/") && memcmp(p.baseAddress!, a.baseAddress!, length) == 0
            }
        }
        return below ? nodes.lookup(path, from: anchor.node, skipping: length + 1) : nodes.lookup(path)
    }

    /// `status(of:)`, walking from `anchor` when `path` is below it.
    public func status(of path: String, from anchor: Anchor?) -> TreeFileStatus? {
        // Not `.flatMap(status(ofNode:))`: a method passed as a closure captures a copy of the
        // tree (its dozen buffers retained and released), and image() asks this for every read.
        guard let node = node(path, from: anchor) else { return nil }
        return status(ofNode: node)
    }

    /// A file node's `lstat` (nil for a directory, or a node removed).
    public func status(ofNode id: NodeID) -> TreeFileStatus? {
        nodes.state[Int(id)] == .file ? nodes.status(id) : nil
    }
    /// The root-relative path of a node.
    public func path(of node: NodeID) -> String { nodes.path(node) }
    public func name(of node: NodeID) -> String { nodes.name(node) }
    /// `body` with a node's name as bytes (those of `name(of:)`), without making a String.
    public func withName<R>(of node: NodeID, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { nodes.withName(node, body) }
    public func parent(of node: NodeID) -> NodeID { nodes.parent[Int(node)] }
    public func isDirectory(node: NodeID) -> Bool { nodes.isDirectoryLike(node) }
    /// False for a node removed (and not yet reclaimed) or free.
    public func isLive(_ node: NodeID) -> Bool { nodes.isLive(node) }

    /// A file's `lstat` (nil for directories and paths not in the tree).
    public func status(of path: String) -> TreeFileStatus? {
        guard let id = nodes.lookup(path), nodes.state[Int(id)] == .file else { return nil }
        return nodes.status(id)
    }

    public func isFile(_ path: String) -> Bool { status(of: path) != nil }
    public func isDirectory(_ path: String) -> Bool {
        guard let id = nodes.lookup(path) else { return false }
        return nodes.isDirectoryLike(id)
    }
    public func contains(_ path: String) -> Bool { nodes.lookup(path) != nil }
    public func isUnreadable(_ path: String) -> Bool { nodes.lookup(path).map { nodes.state[Int($0)] == .unreadable } ?? false }
    public func isUnreadable(node: NodeID) -> Bool { nodes.state[Int(node)] == .unreadable }

    public var fileCount: Int { nodes.fileCount }
    /// Node ids handed out (live, removed or free for reuse): every id is below it.
    var nodeCapacity: Int { nodes.capacity }

    /// Files at or below `path`, counted on the nodes (0 when the tree does not hold it).
    public func fileCount(under path: String) -> Int {
        guard let top = nodes.lookup(path) else { return 0 }
        var count = 0
        var stack = [top]
        while let id = stack.popLast() {
            switch nodes.state[Int(id)] {
            case .file: count += 1
            case .directory: stack += nodes.children(id)
            case .unreadable, .removed, .free: break
            }
        }
        return count
    }

    /// Every file's path (built on demand: the tree stores none).
    public var filePaths: [String] {
        var out: [String] = []
        out.reserveCapacity(nodes.fileCount)
        for i in 0..<nodes.capacity where nodes.state[i] == .file { out.append(nodes.path(NodeID(i))) }
        return out
    }

    /// Directories that could not be listed, with why.
    public var unreadable: [String: SystemError] {
        var out: [String: SystemError] = [:]
        for (id, error) in unreadableErrors { out[nodes.path(id)] = error }
        return out
    }

    /// Calls `body` with every listed directory (unreadable ones excluded) and its live children.
    public func forEachDirectory(_ body: (_ directory: NodeID, _ children: [NodeID]) -> Void) {
        for i in 0..<nodes.capacity where nodes.state[i] == .directory { body(NodeID(i), nodes.children(NodeID(i))) }
    }

    public func entries(of directory: String) -> Result<[DirectoryEntry], SystemError> {
        guard let id = nodes.lookup(directory), nodes.isDirectoryLike(id) else {
            return .failure(SystemError(call: "opendir", path: absolute(directory), errno: 2))
        }
        if let error = unreadableErrors[id] { return .failure(error) }
        return .success(
            nodes.children(id).compactMap { child in
                nodes.isLive(child) ? DirectoryEntry(name: nodes.name(child), isDirectory: nodes.isDirectoryLike(child)) : nil
            })
    }

    /// True when any component of the path is an excluded name.
    public func isExcluded(_ path: String) -> Bool {
        path.split(separator: "/").contains { isExcludedName(String($0)) }
    }

    public func isExcludedName(_ name: String) -> Bool {
        excluded.contains(name)
    }

    /// Whether an excluded name is a vendored folder (said), not a build folder (silent).
    static let vendoredNames = ExcludedNames(ResourceTree.vendored)

    /// The vendored folders the walk left out and the prebuilt frameworks it met (root-relative,
    /// sorted; a framework inside another, an xcframework's slice, is not listed), e.g.
    /// `Carthage`, `Vendor/Foo.xcframework`.
    public var vendoredFolders: [String] {
        let all = vendoredChildren.flatMap { dir, names in
            nodes.isLive(dir) || dir == NodeStore.root ? names.map { RelativePath.join(path(of: dir), $0) } : []
        }.sorted()
        // A folder is left out when one of its ancestors is listed: a walk up its parents (not a
        // comparison with every other folder: a tree may hold thousands of frameworks).
        let listed = Set(all)
        return all.filter { folder in
            var up = RelativePath.parent(folder)
            while !up.isEmpty {
                if listed.contains(up) { return false }
                up = RelativePath.parent(up)
            }
            return true
        }
    }

    /// Whether the tree holds a prebuilt framework (then `isInsidePrebuiltBundle` is asked).
    public var hasPrebuiltBundles: Bool { !vendoredChildren.isEmpty }

    /// Whether a path lies inside a `.framework` or `.xcframework` (not the bundle itself).
    public static func isInsidePrebuiltBundle(_ path: String) -> Bool {
        RelativePath.contains(".framework/", in: path) || RelativePath.contains(".xcframework/", in: path)
    }

    /// Bytes of names held: each name once (the tree stores no paths).
    public var nameBytes: Int { nodes.arena.count - nodes.garbageBytes }
}
