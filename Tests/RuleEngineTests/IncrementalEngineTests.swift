import Foundation
import ImageFacts
import RuleEngine
import RuleKinds
import RuleKit
import SystemCalls
import TestSupport
import Testing

@Suite struct IncrementalEngineTests {
    /// 50 app icon sets of 3 icons each (plus Contents.json) in one project; each 1024 icon is
    /// wrong on purpose: 50 size-mismatch errors.
    static func fiftySets() -> [String: ExampleFile] { Fixtures.iconSets(50, in: "App", catalog: "Assets.xcassets") }

    /// Evaluations that read one icon of a set: every rule on the image itself, plus the set's rule.
    static let perIconEvaluations: Int = {
        let icon = Subject(.image, "App/Assets.xcassets/Set7.appiconset/a.png")
        return Repo.shippedRuleSet().rules.filter { $0.rule.subjectKinds.contains(.image) && $0.rule.applies(to: icon) }.count + 1
    }()

    @Test func changingOnePNGReRunsOnlyTheEvaluationsThatReadIt() throws {
        let tree = try TempTree(Self.fiftySets())
        let engine = tree.engine()
        let cold = engine.evaluationsRun
        #expect(cold > 200, "50 sets x (set kinds) + 150 images x png kind")
        #expect(engine.diagnostics.count { $0.rule == "icon.size-mismatch" } == 50)

        try tree.write(["App/Assets.xcassets/Set7.appiconset/a.png": .png(PNGSpec(width: 121, height: 120))])
        let delta = engine.apply(changedPaths: [tree.path + "/App/Assets.xcassets/Set7.appiconset/a.png"])
        // The image's own rules, and appicon-set on its set: nothing else read that file.
        #expect(delta.evaluationsRun == Self.perIconEvaluations)
        #expect(delta.added.map(\.rule) == ["icon.size-mismatch"] && delta.added[0].message.contains("121x120 but should be 120x120"))
        #expect(delta.removed.isEmpty)

        // A path reported as changed is re-validated even when its stat looks unchanged (kernel
        // mtimes are coarse), but still only by the two evaluations that read it.
        let again = engine.apply(changedPaths: [tree.path + "/App/Assets.xcassets/Set3.appiconset/b.png"])
        #expect(again.evaluationsRun == Self.perIconEvaluations && again.isEmpty)
        // A path nobody read re-runs nothing.
        #expect(engine.apply(changedPaths: [tree.path + "/App/notes.txt"]).evaluationsRun == 0)
    }

    @Test func contextChangeReRunsTheProject() throws {
        let tree = try TempTree(Self.fiftySets())
        let engine = tree.engine()
        try tree.write([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\nrules: {disable: [icon.size-mismatch]}\n")
        ])
        let delta = engine.apply(changedPaths: ["App/.reswatch.yaml"])
        #expect(delta.removed.count == 50 && delta.added.isEmpty, "\(delta.removed.map(\.rule)) \(delta.added)")
    }

    @Test func newAndDeletedFilesAndSets() throws {
        let tree = try TempTree(Self.fiftySets())
        let engine = tree.engine()
        try tree.remove("App/Assets.xcassets/Set1.appiconset/a.png")
        var delta = engine.apply(changedPaths: ["App/Assets.xcassets/Set1.appiconset/a.png"])
        #expect(delta.added.contains { $0.rule == "icon.file-missing" })
        #expect(delta.added.contains { $0.rule == "icon.missing-required" } == false, "Set1 is not the primary AppIcon set")
        try tree.write(["App/Assets.xcassets/Set1.appiconset/a.png": .png(PNGSpec(width: 120, height: 120))])
        delta = engine.apply(changedPaths: ["App/Assets.xcassets/Set1.appiconset/a.png"])
        #expect(delta.removed.contains { $0.rule == "icon.file-missing" })
        try tree.remove("App/Assets.xcassets/Set2.appiconset")
        delta = engine.apply(changedPaths: ["App/Assets.xcassets/Set2.appiconset"])
        #expect(delta.removed.count == 1 && delta.removed[0].path.hasPrefix("App/Assets.xcassets/Set2.appiconset"))
        assertEqualsCold(engine, tree)
    }

    /// The subject index is sized for the tree when a scan rebuilds it; sets added afterwards
    /// (nodes past that size) are found and judged as a cold run judges them.
    @Test func setsAddedAfterTheScanGrowTheSubjectIndex() throws {
        let tree = try TempTree(Self.fiftySets())
        let engine = tree.engine()
        var added: [String: ExampleFile] = [:]
        for (path, file) in Fixtures.iconSets(20, in: "App", catalog: "More.xcassets") { added[path] = file }
        try tree.write(added)
        let delta = engine.apply(changedPaths: ["App/More.xcassets"])
        #expect(delta.added.contains { $0.path.hasPrefix("App/More.xcassets/") }, "the new sets' findings")
        assertEqualsCold(engine, tree)
    }

    @Test func rescanFindsOnlyRealDifferences() throws {
        let tree = try TempTree(Self.fiftySets())
        let engine = tree.engine()
        #expect(engine.rescan().evaluationsRun == 0)
        try tree.write(["App/Assets.xcassets/Set9.appiconset/c.png": .png(PNGSpec(width: 1024, height: 1024))])
        let delta = engine.rescan()
        #expect(delta.evaluationsRun == Self.perIconEvaluations && delta.removed.count == 1)
    }

    /// `check` walks its trees while the rule modules load and hands them to the engine: what
    /// the engine then finds is what its own walk gives; a tree of another root is not taken.
    @Test func aTreeWalkedBeforehandGivesWhatAScanGives() throws {
        let tree = try TempTree(Self.fiftySets())
        try tree.write(["App/Assets.xcassets/Set2.appiconset/a.png": .png(PNGSpec(width: 121, height: 120))])
        let other = try TempTree(Fixtures.iconSets(2))
        let own = tree.engine()
        for walkedRoot in [tree.path, other.path] {
            var walked = ResourceTree(root: walkedRoot)
            walked.scanAll(reportAdded: false)
            let engine = Engine(root: tree.path, rules: Repo.shippedRuleSet(), registry: BuiltinKinds.registry, incremental: false)
            engine.fullScan(walked: walked)
            #expect(engine.fileCount == own.fileCount, "\(walkedRoot)")
            #expect(engine.diagnostics == own.diagnostics, "\(walkedRoot)")
        }
    }

    /// A rescan alone (the changes never announced) catches every kind of difference a listing
    /// can show: a file rewritten, removed, added, replaced by a folder, by a link to a file in
    /// the tree, and by a link to an icon set folder; and a folder replaced by a file.
    @Test func aRescanAloneConvergesToAColdRun() throws {
        let tree = try TempTree(Self.fiftySets())
        let engine = tree.engine()
        let set = "App/Assets.xcassets/Set3.appiconset"
        try tree.write(["App/Assets.xcassets/Set11.appiconset/a.png": .png(PNGSpec(width: 121, height: 120))])
        try tree.remove(set + "/b.png")
        try tree.write(["App/Assets.xcassets/Set4.appiconset/extra.png": .png(PNGSpec(width: 1, height: 1))])
        try tree.remove("App/Assets.xcassets/Set5.appiconset/a.png")
        try tree.write(["App/Assets.xcassets/Set5.appiconset/a.png/inner.png": .png(PNGSpec(width: 1, height: 1))])
        try tree.remove("App/Assets.xcassets/Set6.appiconset/a.png")
        try FileManager.default.createSymbolicLink(
            atPath: tree.path + "/App/Assets.xcassets/Set6.appiconset/a.png", withDestinationPath: "../Set7.appiconset/a.png")
        try tree.remove("App/Assets.xcassets/Set8.appiconset")
        try FileManager.default.createSymbolicLink(
            atPath: tree.path + "/App/Assets.xcassets/Set8.appiconset", withDestinationPath: "Set9.appiconset")
        try tree.remove("App/Assets.xcassets/Set10.appiconset")
        try tree.write(["App/Assets.xcassets/Set10.appiconset": .text("not a folder")])
        _ = engine.rescan()
        assertEqualsCold(engine, tree)
        #expect(engine.rescan().evaluationsRun == 0, "a second rescan finds nothing more")
    }

    /// After any sequence of changes the engine equals a cold run (design.md's invariant).
    @Test(arguments: [1, 2, 3, 4])
    func randomOperationsConvergeToAColdRun(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let tree = try TempTree([
            "P/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            "P/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"f0.png\"}]}"),
        ])
        let engine = tree.engine()
        let sets = [
            "P/Assets.xcassets/AppIcon.appiconset", "P/Assets.xcassets/Other.appiconset", "P/Assets.xcassets/Img.imageset", "P/Loose",
        ]
        for _ in 0..<120 {
            var changed: [String] = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let dir = sets.randomElement(using: &rng)!
                let name = "f\(Int.random(in: 0..<4, using: &rng)).png"
                let path = dir + "/" + name
                switch Int.random(in: 0..<7, using: &rng) {
                case 0, 1:
                    let side = [1024, 120, 64, 1032].randomElement(using: &rng)!
                    let spec = PNGSpec(
                        width: side, height: side, color: [.rgb, .rgba, .palette, .gray].randomElement(using: &rng)!,
                        transparentPixels: Bool.random(using: &rng), truncateTo: Bool.random(using: &rng) ? nil : 30)
                    try tree.write([path: .png(spec)])
                case 2: try? tree.remove(path)
                case 3:
                    let json = [
                        "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"\(name)\"}]}",
                        "{\"images\":[{\"idiom\":\"iphone\",\"size\":\"60x60\",\"scale\":\"2x\",\"filename\":\"\(name)\"}]}",
                        "{ broken", "",
                    ].randomElement(using: &rng)!
                    try tree.write([dir + "/Contents.json": .text(json)])
                    changed.append(dir + "/Contents.json")
                case 4:
                    let other = sets.randomElement(using: &rng)! + "/" + name
                    if FileManager.default.fileExists(atPath: tree.path + "/" + path) {
                        try? FileManager.default.createDirectory(
                            atPath: tree.path + "/" + RelativePath.parent(other), withIntermediateDirectories: true)
                        try? tree.move(path, other)
                        changed.append(other)
                    }
                case 5:
                    let from = sets.randomElement(using: &rng)!
                    let to = "P/Assets.xcassets/Moved\(Int.random(in: 0..<2, using: &rng)).appiconset"
                    if !FileManager.default.fileExists(atPath: tree.path + "/" + to) { try? tree.move(from, to) }
                    changed += [from, to]
                default:
                    try? tree.remove(dir)
                    changed.append(dir)
                }
                changed.append(path)
            }
            engine.apply(changedPaths: changed)
        }
        assertEqualsCold(engine, tree)
    }

    func assertEqualsCold(_ engine: Engine, _ tree: TempTree, sourceLocation: SourceLocation = #_sourceLocation) {
        let cold = tree.engine()
        let a = engine.diagnostics.map { "\($0.rule) \($0.path) \($0.message)" }
        let b = cold.diagnostics.map { "\($0.rule) \($0.path) \($0.message)" }
        #expect(
            a == b, "incremental differs from cold:\n only incremental: \(Set(a).subtracting(b))\n only cold: \(Set(b).subtracting(a))",
            sourceLocation: sourceLocation)
    }
}
