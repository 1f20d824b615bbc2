import Daemon
import Foundation
import ImageFacts
import Logging
import RuleEngine
import RuleKinds
import RuleKit
import TestSupport
import Testing

/// The daemon's roots draw on one bound of cached file facts (`factsCacheEntries`), not one each
/// (1,000 roots of 100 files held all 100,000 images' facts), and an unwatched root's facts go.
@Suite struct SharedFactsCacheTests {
    /// `sets` icon sets of three icons; the 1024 one is 64×64: one icon.size-mismatch a set.
    static func iconSets(_ sets: Int) -> [String: ExampleFile] { Fixtures.iconSets(sets) }

    func core(_ roots: [TempTree], entries: Int) async -> DaemonCore {
        var configuration = DaemonConfiguration(socketPath: roots[0].path + "/unused.sock", kinds: BuiltinKinds.registry)
        configuration.roots = roots.map(\.path)
        configuration.ruleSources = ShippedModules.sources(environment: [:])
        configuration.factsCacheEntries = entries
        configuration.shedCachesAfterScans = false  // these look at what the scans left
        let core = DaemonCore(
            configuration: configuration, version: "test", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            eventLog: nil, notifier: SystemdNotifier(environment: [:]), watcher: FakeWatchEventSource())
        await core.start()
        return core
    }

    func mismatches(_ core: DaemonCore, _ root: TempTree) async throws -> Int {
        try await core.diagnostics(root: root.path, path: nil).diagnostics.count { $0.rule == "icon.size-mismatch" }
    }

    @Test func twoRootsStayWithinOneBoundAndAreJudgedInFull() async throws {
        let trees = [try TempTree(Self.iconSets(20)), try TempTree(Self.iconSets(20))]
        let core = await core(trees, entries: 64)
        // 120 icons between the two roots, read through the daemon's one cache; one cache each
        // would have held them all.
        let cached = core.caches.facts.count
        #expect(cached > 0 && cached <= 64, "\(cached)")
        for tree in trees { #expect(try await mismatches(core, tree) == 20) }
        await core.stop()
    }

    /// What a scan leaves in the caches is dropped when scans fall idle (the tail of whatever
    /// it read last, not what is edited next); the findings stay, and a change reads again what
    /// it needs and is judged as before.
    @Test func scanLeftoversAreShedAndChangesAreStillJudged() async throws {
        let tree = try TempTree(Self.iconSets(20))
        var configuration = DaemonConfiguration(socketPath: tree.path + "/unused.sock", kinds: BuiltinKinds.registry)
        configuration.roots = [tree.path]
        configuration.ruleSources = ShippedModules.sources(environment: [:])
        configuration.settleMilliseconds = 5
        let watcher = FakeWatchEventSource()
        let core = DaemonCore(
            configuration: configuration, version: "test", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            eventLog: nil, notifier: SystemdNotifier(environment: [:]), watcher: watcher)
        let events = watcher.events
        let consumer = Task { for await event in events { await core.receive(event) } }
        await core.start()
        let deadline = ContinuousClock.now + .seconds(30)
        while core.caches.facts.count > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(core.caches.facts.count == 0)
        #expect(try await mismatches(core, tree) == 20)

        // Set 0's App Store icon made the right size: the set is judged again from its files.
        let icon = "A.xcassets/Set0.appiconset/c.png"
        try tree.write([icon: .png(PNGSpec(width: 1024, height: 1024))])
        watcher.send(.changed(root: tree.path, path: tree.path + "/" + icon))
        _ = try await core.sync(timeoutMilliseconds: 30_000)
        #expect(try await mismatches(core, tree) == 19)
        #expect(core.caches.facts.count > 0, "the change read its set's images again")
        await core.stop()
        await consumer.value
    }

    @Test func anUnwatchedRootsFactsAreDropped() async throws {
        let trees = [try TempTree(Self.iconSets(20)), try TempTree(Self.iconSets(20))]
        let core = await core(trees, entries: 4096)
        #expect(core.caches.facts.count == 120)
        _ = try await core.removeRoot(trees[0].path)
        #expect(core.caches.facts.count == 60)
        #expect(try await mismatches(core, trees[1]) == 20)
        await core.stop()
    }
}
