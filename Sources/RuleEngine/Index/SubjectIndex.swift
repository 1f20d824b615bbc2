/// Every subject of the tree and the project it belongs to, both ways, on the tree's node ids:
/// per node a bit per subject kind and its project's node; per project, its members by kind. No
/// path is stored (paths are rebuilt from the tree when a `Subject` is handed out). Also the
/// subjects the current change added, removed or moved between projects.
struct SubjectIndex: Sendable {
    typealias NodeID = ResourceTree.NodeID

    /// Per node id: one bit per `SubjectKind` (by `ordinal`), 0 when the node is no subject.
    private var kinds: [UInt16] = []
    /// Per node id: the project (a directory node) of its subjects.
    private var projectNode: [NodeID] = []
    /// Project node → its member nodes, per kind ordinal.
    private var members = SmallMap<NodeID, [Set<NodeID>]>()
    /// Project node → its directory path (a few per root).
    private var projectPaths = SmallMap<NodeID, String>()
    private(set) var count = 0
    /// (subject, old project, new project) of the current change.
    var changes: [(subject: Subject, old: String?, new: String?)] = []

    static let kindCount = SubjectKind.allCases.count

    mutating func removeAll() {
        kinds = []
        projectNode = []
        members.removeAll()
        projectPaths.removeAll()
        count = 0
    }

    /// Empties the index and makes room for `nodes` nodes (a rebuild's tree), exactly: grown as
    /// subjects were set, the two per-node arrays kept up to twice the room they needed.
    mutating func removeAll(keepingRoomFor nodes: Int) {
        removeAll()
        kinds = [UInt16](repeating: 0, count: nodes)
        projectNode = [NodeID](repeating: 0, count: nodes)
    }

    private func has(_ kind: SubjectKind, _ node: NodeID) -> Bool {
        Int(node) < kinds.count && kinds[Int(node)] & kind.bit != 0
    }

    /// The project directory of a subject.
    func project(of subject: Subject, in tree: ResourceTree) -> String? {
        guard let node = tree.node(subject.path) else { return nil }
        return project(of: subject.kind, node)
    }

    func project(of kind: SubjectKind, _ node: NodeID) -> String? {
        has(kind, node) ? projectPaths[projectNode[Int(node)]] : nil
    }

    /// Whether a project directory holds any subject.
    func hasMembers(_ project: String, in tree: ResourceTree) -> Bool {
        guard let p = tree.node(project), let m = members[p] else { return false }
        return projectPaths[p] == project && !m.allSatisfy(\.isEmpty)
    }

    func memberCount(_ project: String, in tree: ResourceTree) -> Int {
        guard let p = tree.node(project), projectPaths[p] == project, let m = members[p] else { return 0 }
        return m.reduce(0) { $0 + $1.count }
    }

    /// How many subjects of one kind a project has.
    func count(_ kind: SubjectKind, inProject project: String, tree: ResourceTree) -> Int {
        guard let p = tree.node(project), projectPaths[p] == project, let m = members[p] else { return 0 }
        return m[kind.ordinal].count
    }

    /// The subjects of one kind in a project, sorted.
    func subjects(_ kind: SubjectKind, inProject project: String, tree: ResourceTree) -> [Subject] {
        guard let p = tree.node(project), projectPaths[p] == project, let m = members[p] else { return [] }
        return m[kind.ordinal].map { Subject(kind, tree.path(of: $0)) }.sorted()
    }

    /// Every subject of a project.
    func subjects(inProject project: String, tree: ResourceTree) -> [Subject] {
        guard let p = tree.node(project), projectPaths[p] == project, let m = members[p] else { return [] }
        var out: [Subject] = []
        for kind in SubjectKind.allCases { out += m[kind.ordinal].map { Subject(kind, tree.path(of: $0)) } }
        return out
    }

    /// The subjects of each kind in each project, as a group (one lookup of the project's rules
    /// per group, not per subject).
    func forEachGroup(_ body: (_ kind: SubjectKind, _ nodes: Set<NodeID>, _ project: String) -> Void) {
        for (p, m) in members {
            guard let dir = projectPaths[p] else { continue }
            for kind in SubjectKind.allCases where !m[kind.ordinal].isEmpty { body(kind, m[kind.ordinal], dir) }
        }
    }

    /// Every subject with its project, paths built (for comparing before and after a rebuild).
    func snapshot(tree: ResourceTree) -> [Subject: String] {
        var out: [Subject: String] = [:]
        out.reserveCapacity(count)
        forEachGroup { kind, nodes, project in for node in nodes { out[Subject(kind, tree.path(of: node))] = project } }
        return out
    }

    /// Puts a subject (a node of the tree) in a project; `recording` adds the move to `changes`.
    mutating func set(_ kind: SubjectKind, _ node: NodeID, project target: NodeID, tree: ResourceTree, recording: Bool) {
        let i = Int(node)
        if i >= kinds.count {
            let grow = max(i + 1 - kinds.count, kinds.count / 2)
            kinds += repeatElement(0, count: grow)
            projectNode += repeatElement(0, count: grow)
        }
        let old = project(of: kind, node)
        if has(kind, node) {
            guard projectNode[i] != target else { return }
            removeMember(kind, node)
        }
        if kinds[i] != 0 && projectNode[i] != target {
            // A node's subjects share one project: move its other kinds along.
            for other in SubjectKind.allCases where has(other, node) {
                let was = project(of: other, node)
                removeMember(other, node)
                addMember(other, node, project: target, tree: tree)
                if recording { changes.append((Subject(other, tree.path(of: node)), was, projectPaths[target])) }
            }
        }
        addMember(kind, node, project: target, tree: tree)
        if recording { changes.append((Subject(kind, tree.path(of: node)), old, projectPaths[target])) }
    }

    /// Takes a subject out; returns the project it was in.
    @discardableResult
    mutating func unset(_ kind: SubjectKind, _ node: NodeID, tree: ResourceTree, recording: Bool) -> String? {
        guard let old = project(of: kind, node) else { return nil }
        removeMember(kind, node)
        if recording { changes.append((Subject(kind, tree.path(of: node)), old, nil)) }
        return old
    }

    /// Takes every subject of a node out (a removed path); returns the projects they were in.
    mutating func unsetAll(_ node: NodeID, tree: ResourceTree) -> Set<String> {
        guard Int(node) < kinds.count, kinds[Int(node)] != 0 else { return [] }
        var touched = Set<String>()
        for kind in SubjectKind.allCases {
            if let old = unset(kind, node, tree: tree, recording: true) { touched.insert(old) }
        }
        return touched
    }

    private mutating func addMember(_ kind: SubjectKind, _ node: NodeID, project: NodeID, tree: ResourceTree) {
        kinds[Int(node)] |= kind.bit
        projectNode[Int(node)] = project
        if members[project] == nil {
            members[project] = Array(repeating: [], count: Self.kindCount)
            projectPaths[project] = tree.path(of: project)
        }
        members.updateIfPresent(project) { _ = $0[kind.ordinal].insert(node) }
        count += 1
    }

    private mutating func removeMember(_ kind: SubjectKind, _ node: NodeID) {
        kinds[Int(node)] &= ~kind.bit
        let p = projectNode[Int(node)]
        members.updateIfPresent(p) { _ = $0[kind.ordinal].remove(node) }
        count -= 1
        if members[p]?.allSatisfy(\.isEmpty) == true {
            members[p] = nil
            projectPaths[p] = nil
        }
    }
}

extension SubjectKind {
    /// Position in `allCases`.
    var ordinal: Int {
        switch self {
        case .image: 0
        case .assetSet: 1
        case .infoPlist: 2
        case .project: 3
        case .localization: 4
        case .settingsBundle: 5
        case .interfaceFile: 6
        case .loosePNG: 7
        case .catalog: 8
        case .iconComposer: 9
        case .iconLayer: 10
        case .privacyManifest: 11
        case .framework: 12
        case .source: 13
        }
    }
    var bit: UInt16 { 1 << UInt16(ordinal) }

    /// Every kind, by `ordinal`.
    static let byOrdinal: [SubjectKind] = allCases
}
