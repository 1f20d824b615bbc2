import Foundation
import ImageFacts
import ProjectModel
import RuleKinds
import SystemCalls
import TestSupport
import Testing

@testable import RuleEngine

/// The daemon's roots share one cache of file facts: one bound for all of them, and a root's
/// rescan or change never serves another root (or itself) stale facts.
@Suite struct EngineCachesTests {
    func engine(_ tree: TempTree, _ caches: EngineCaches) -> Engine {
        let e = Engine(root: tree.path, rules: Repo.shippedRuleSet(), registry: BuiltinKinds.registry, caches: caches)
        e.fullScan()
        return e
    }

    @Test func rootsSharingACacheStayWithinOneBoundAndJudgeAsAlone() throws {
        let caches = EngineCaches(capacity: 64)
        let a = try TempTree(IncrementalEngineTests.fiftySets())
        let b = try TempTree(IncrementalEngineTests.fiftySets())
        let engines = [engine(a, caches), engine(b, caches)]
        // 300 images between them; the shared bound holds, where one cache each held twice it.
        #expect(caches.facts.count <= 64)
        for e in engines { #expect(e.diagnostics.count { $0.rule == "icon.size-mismatch" } == 50) }
        #expect(engines[0].diagnostics.map(\.message) == a.engine().diagnostics.map(\.message))
    }

    /// After a scan the daemon sheds image facts and parsed files, and keeps the values derived
    /// from sources, which a privacy rule reads in full on every change.
    @Test func shedScanLeftoversKeepsWhatSourcesDerived() throws {
        let caches = EngineCaches()
        let tree = try TempTree(IncrementalEngineTests.fiftySets())
        _ = engine(tree, caches)
        #expect(caches.facts.count > 0)
        let key = FileKey(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4)
        _ = caches.parsed.derived("/s.swift", tag: "uses", key: key) { 7 }
        _ = caches.parsed.contents("/c.json", key: key) { AssetContentsReader.parse(Array(#"{"images":[]}"#.utf8)) }
        caches.shedScanLeftovers()
        #expect(caches.facts.count == 0)
        var computed = false
        #expect(
            caches.parsed.derived("/s.swift", tag: "uses", key: key) {
                computed = true; return 8
            } == 7 && !computed)
        _ = caches.parsed.contents("/c.json", key: key) {
            computed = true; return AssetContentsReader.parse(Array(#"{"images":[]}"#.utf8))
        }
        #expect(computed, "the parsed Contents.json was shed")
    }

    @Test func aRootsFullScanForgetsOnlyItsOwnFacts() throws {
        let caches = EngineCaches()
        let a = try TempTree(IncrementalEngineTests.fiftySets())
        let b = try TempTree(IncrementalEngineTests.fiftySets())
        let first = engine(a, caches)
        let second = engine(b, caches)
        #expect(caches.facts.count == 300)
        let readsBefore = caches.facts.counters.fileReads
        second.fullScan()
        // b's 150 images are read again (two evaluations may race to read one); a's stay cached.
        #expect(caches.facts.count == 300)
        let reread = caches.facts.counters.fileReads - readsBefore
        #expect(reread >= 150 && reread < 300, "\(reread)")
        let cachedReads = caches.facts.counters.fileReads
        _ = caches.facts.image(at: a.path + "/App/Assets.xcassets/Set7.appiconset/a.png")
        #expect(caches.facts.counters.fileReads == cachedReads)
        // A file of a changed in place is read afresh through the shared cache.
        try a.write(["App/Assets.xcassets/Set7.appiconset/c.png": .png(PNGSpec(width: 1024, height: 1024))])
        let delta = first.apply(changedPaths: [a.path + "/App/Assets.xcassets/Set7.appiconset/c.png"])
        #expect(delta.removed.map(\.rule) == ["icon.size-mismatch"] && delta.added.isEmpty)
        caches.facts.forget(under: a.path)
        #expect(caches.facts.count == 150)
    }
}
