import RuleKit

/// Every subject of the tree and the project it belongs to, both ways, on the tree's node ids:
/// per node a bit per subject kind and its project's node; per project, its members by kind. No
/// path is stored (paths are rebuilt from the tree when a `Subject` is handed out). Also the
/// subjects the current change added, removed or moved between projects.
///
/// A tree of up to `scanLimit` nodes keeps no member sets: a project's members are found by
/// reading the two per-node arrays, a few hundred entries. The sets of a root of 100 files (a set
/// per kind, an array of them per project) were 1 kB of its memory, for 1,000 such roots 1 MB
/// (docs/performance.md); a bigger tree keeps them, so that a project's members are not a walk of
/// every node.
struct SubjectIndex: Sendable {
    typealias NodeID = ResourceTree.NodeID

    /// Trees of more nodes than this keep a set of members per project and kind.
    static let defaultScanLimit = 1_024
    let scanLimit: Int
    /// Per node id: one bit per `SubjectKind` (by `ordinal`), 0 when the node is no subject.
    private var kinds: [UInt16] = []
    /// Per node id: the project (a directory node) of its subjects.
    private var projectNode: [NodeID] = []
    /// Project node → its member nodes, per kind ordinal; kept only while `indexed`.
    private var members = SmallMap<NodeID, [Set<NodeID>]>()
    /// The tree has more than `scanLimit` nodes: `members` is kept.
    private(set) var indexed = false
    /// Project node → its directory path (a few per root).
    private var projectPaths = SmallMap<NodeID, String>()
    private(set) var count = 0
    /// (subject, old project, new project) of the current change.
    var changes: [(subject: Subject, old: String?, new: String?)] = []

    static let kindCount = SubjectKind.allCases.count

    init(scanLimit: Int = Self.defaultScanLimit) { self.scanLimit = scanLimit }

    mutating func removeAll() {
        kinds = []
        projectNode = []
        members.removeAll()
        indexed = false
        projectPaths.removeAll()
        count = 0
    }

    /// Empties the index and makes room for `nodes` nodes (a rebuild's tree), exactly: grown as
    /// subjects were set, the two per-node arrays kept up to twice the room they needed.
    mutating func removeAll(keepingRoomFor nodes: Int) {
        removeAll()
        kinds = [UInt16](repeating: 0, count: nodes)
        projectNode = [NodeID](repeating: 0, count: nodes)
        indexed = nodes > scanLimit
    }

    /// A project's members by kind ordinal: its sets, or (a small tree) read from the per-node arrays.
    private func memberSets(_ p: NodeID) -> [Set<NodeID>]? {
        if indexed { return members[p] }
        guard projectPaths[p] != nil else { return nil }
        var sets = [Set<NodeID>](repeating: [], count: Self.kindCount)
        forEachMember(of: p) { node, bits in
            for kind in SubjectKind.allCases where bits & kind.bit != 0 { sets[kind.ordinal].insert(node) }
        }
        return sets
    }

    /// Each node with a subject in project `p`, and its kinds' bits (a small tree's scan).
    private func forEachMember(of p: NodeID, _ body: (NodeID, UInt16) -> Void) {
        for i in kinds.indices where kinds[i] != 0 && projectNode[i] == p { body(NodeID(i), kinds[i]) }
    }

    /// The project's subjects of one kind as subjects (paths built), unsorted.
    private func subjects(_ kind: SubjectKind, inProject p: NodeID, tree: ResourceTree) -> [Subject] {
        if indexed { return members[p]?[kind.ordinal].map { Subject(kind, tree.path(of: $0)) } ?? [] }
        var out: [Subject] = []
        forEachMember(of: p) { node, bits in if bits & kind.bit != 0 { out.append(Subject(kind, tree.path(of: node))) } }
        return out
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
        guard let p = tree.node(project), projectPaths[p] == project else { return false }
        if indexed { return members[p].map { !$0.allSatisfy(\.isEmpty) } ?? false }
        var found = false
        forEachMember(of: p) { _, _ in found = true }
        return found
    }

    func memberCount(_ project: String, in tree: ResourceTree) -> Int {
        guard let p = tree.node(project), projectPaths[p] == project else { return 0 }
        if indexed { return members[p]?.reduce(0) { $0 + $1.count } ?? 0 }
        var n = 0
        forEachMember(of: p) { _, bits in n += bits.nonzeroBitCount }
        return n
    }

    /// How many subjects of one kind a project has.
    func count(_ kind: SubjectKind, inProject project: String, tree: ResourceTree) -> Int {
        guard let p = tree.node(project), projectPaths[p] == project else { return 0 }
        if indexed { return members[p]?[kind.ordinal].count ?? 0 }
        var n = 0
        forEachMember(of: p) { _, bits in if bits & kind.bit != 0 { n += 1 } }
        return n
    }

    /// The subjects of one kind in a project, sorted.
    func subjects(_ kind: SubjectKind, inProject project: String, tree: ResourceTree) -> [Subject] {
        guard let p = tree.node(project), projectPaths[p] == project else { return [] }
        return subjects(kind, inProject: p, tree: tree).sorted()
    }

    /// Every subject of a project.
    func subjects(inProject project: String, tree: ResourceTree) -> [Subject] {
        guard let p = tree.node(project), projectPaths[p] == project else { return [] }
        var out: [Subject] = []
        for kind in SubjectKind.allCases { out += subjects(kind, inProject: p, tree: tree) }
        return out
    }

    /// The subjects of each kind in each project, as a group (one lookup of the project's rules
    /// per group, not per subject).
    func forEachGroup(_ body: (_ kind: SubjectKind, _ nodes: Set<NodeID>, _ project: String) -> Void) {
        for (p, dir) in projectPaths {
            guard let m = memberSets(p) else { continue }
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
            if !indexed && kinds.count > scanLimit { buildMembers() }
        }
        let old = project(of: kind, node)
        if has(kind, node) {
            guard projectNode[i] != target else { return }
            removeMember(kind, node)
        }
        if kinds[i] != 0 && projectNode[i] != target {
            // A node's subjects share one project: move its other kinds along. All out of the old
            // project first: `removeMember` finds the project by the node's, which adding one to
            // the new project changes (one at a time, the second kind stayed in the old project's
            // set, and its move was recorded from the new one: SubjectIndexTests).
            let others = SubjectKind.allCases.filter { has($0, node) }
            let was = project(of: others[0], node)
            for other in others { removeMember(other, node) }
            for other in others {
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

    /// The tree grew past `scanLimit`: the member sets, built from the per-node arrays.
    private mutating func buildMembers() {
        indexed = true
        for p in projectPaths.keys {
            var sets = [Set<NodeID>](repeating: [], count: Self.kindCount)
            forEachMember(of: p) { node, bits in
                for kind in SubjectKind.allCases where bits & kind.bit != 0 { sets[kind.ordinal].insert(node) }
            }
            members[p] = sets
        }
    }

    private mutating func addMember(_ kind: SubjectKind, _ node: NodeID, project: NodeID, tree: ResourceTree) {
        kinds[Int(node)] |= kind.bit
        projectNode[Int(node)] = project
        if projectPaths[project] == nil { projectPaths[project] = tree.path(of: project) }
        if indexed {
            if members[project] == nil { members[project] = Array(repeating: [], count: Self.kindCount) }
            members.updateIfPresent(project) { _ = $0[kind.ordinal].insert(node) }
        }
        count += 1
    }

    private mutating func removeMember(_ kind: SubjectKind, _ node: NodeID) {
        kinds[Int(node)] &= ~kind.bit
        let p = projectNode[Int(node)]
        count -= 1
        if indexed {
            members.updateIfPresent(p) { _ = $0[kind.ordinal].remove(node) }
            if members[p]?.allSatisfy(\.isEmpty) == true {
                members[p] = nil
                projectPaths[p] = nil
            }
        } else {
            var left = false
            forEachMember(of: p) { _, _ in left = true }
            if !left { projectPaths[p] = nil }
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
