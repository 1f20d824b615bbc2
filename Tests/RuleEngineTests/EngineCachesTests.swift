import Foundation
import ImageFacts
import RuleEngine
import RuleKinds
import TestSupport
import Testing

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
