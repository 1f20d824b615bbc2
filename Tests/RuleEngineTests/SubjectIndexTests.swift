import RuleKit
import TestSupport
import Testing

@testable import RuleEngine

/// A small tree's subject index finds a project's members by reading its per-node arrays, a big
/// one keeps sets: both answer every question the same, and so does one that grows from the
/// first into the second.
@Suite struct SubjectIndexTests {
    static let kinds: [SubjectKind] = [.image, .assetSet, .infoPlist, .catalog]

    /// Every answer the index gives, as text (subjects sorted where the index gives no order).
    static func answers(_ index: SubjectIndex, projects: [String], nodes: [ResourceTree.NodeID], tree: ResourceTree) -> [String] {
        var out = ["count \(index.count)"]
        for project in projects {
            out.append("\(project): has \(index.hasMembers(project, in: tree)) members \(index.memberCount(project, in: tree))")
            for kind in kinds {
                let subjects = index.subjects(kind, inProject: project, tree: tree).map(\.path)
                out.append("\(project) \(kind): \(index.count(kind, inProject: project, tree: tree)) \(subjects)")
            }
            out.append("\(project) all: \(index.subjects(inProject: project, tree: tree).map { "\($0.kind) \($0.path)" }.sorted())")
        }
        for node in nodes { for kind in kinds { out.append("\(node) \(kind) in \(index.project(of: kind, node) ?? "-")") } }
        var groups: [String] = []
        index.forEachGroup { kind, members, project in groups.append("\(project) \(kind) \(members.sorted())") }
        out.append("groups \(groups.sorted())")
        out.append("snapshot \(index.snapshot(tree: tree).map { "\($0.key.kind) \($0.key.path) \($0.value)" }.sorted())")
        out.append("changes \(index.changes.map { "\($0.subject.kind) \($0.subject.path) \($0.old ?? "-") \($0.new ?? "-")" })")
        return out
    }

    /// 1,500 random sets, unsets and removals of subjects over 5 projects and 120 files, on an
    /// index that always reads its arrays, one that always keeps sets, and one that starts
    /// reading and keeps sets once the nodes it has seen pass 60: after each step, the same answers.
    /// (It found the sets' version moving a node of two kinds to another project wrong: the second
    /// kind stayed in the old project's set.)
    @Test func aScanAnswersAsTheSetsDo() throws {
        var files: [String: ExampleFile] = [:]
        for p in 0..<4 { for f in 0..<30 { files["P\(p)/f\(f).png"] = .text("x") } }
        let temp = try TempTree(files)
        let tree = temp.engine().tree
        let projects = [""] + (0..<4).map { "P\($0)" }
        let projectNodes = try projects.map { try #require(tree.node($0)) }
        let nodes = try (0..<4).flatMap { p in try (0..<30).map { try #require(tree.node("P\(p)/f\($0).png")) } }
        var indexes = [SubjectIndex(scanLimit: .max), SubjectIndex(scanLimit: 0), SubjectIndex(scanLimit: 60)]
        var generator = SeededGenerator(seed: 3)
        for step in 0..<1_500 {
            let node = nodes.randomElement(using: &generator)!
            let kind = Self.kinds.randomElement(using: &generator)!
            let project = projectNodes.randomElement(using: &generator)!
            let op = Int.random(in: 0..<6, using: &generator)
            for i in indexes.indices {
                if step % 50 == 0 { indexes[i].changes = [] }
                switch op {
                case 0, 1, 2: indexes[i].set(kind, node, project: project, tree: tree, recording: op == 0)
                case 3, 4: indexes[i].unset(kind, node, tree: tree, recording: true)
                default: _ = indexes[i].unsetAll(node, tree: tree)
                }
            }
            let expected = Self.answers(indexes[1], projects: projects, nodes: nodes, tree: tree)
            #expect(Self.answers(indexes[0], projects: projects, nodes: nodes, tree: tree) == expected, "step \(step): read")
            #expect(Self.answers(indexes[2], projects: projects, nodes: nodes, tree: tree) == expected, "step \(step): grown")
        }
        #expect(!indexes[0].indexed && indexes[1].indexed && indexes[2].indexed)
    }

    /// A root of a few hundred files keeps no member sets; one past the limit does, and both
    /// find their subjects.
    @Test func aSmallRootReadsItsArraysAndABigOneKeepsSets() throws {
        var files: [String: ExampleFile] = ["Info.plist": .text("<plist><dict/></plist>")]
        for f in 0..<20 { files["Assets.xcassets/S\(f).imageset/Contents.json"] = .text(#"{"images":[]}"#) }
        let small = try TempTree(files).engine()
        #expect(!small.subjects.indexed)
        #expect(small.subjects.count(.assetSet, inProject: "", tree: small.tree) == 20)
        for f in 20..<600 { files["Assets.xcassets/S\(f).imageset/Contents.json"] = .text(#"{"images":[]}"#) }
        let big = try TempTree(files).engine()
        #expect(big.subjects.indexed)
        #expect(big.subjects.count(.assetSet, inProject: "", tree: big.tree) == 600)
    }
}
