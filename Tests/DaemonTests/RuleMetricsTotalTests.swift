import Daemon
import Foundation
import Logging
import RuleEngine
import RuleKinds
import TestSupport
import Testing

/// Rule evaluations are counted once for the whole daemon: each engine job hands over its own
/// counts, and no root keeps a table of them. The metric is a counter, so a removed root's
/// evaluations stay counted, and every job adds to it.
@Suite struct RuleMetricsTotalTests {
    func core(_ roots: [TempTree]) async -> DaemonCore {
        var configuration = DaemonConfiguration(socketPath: roots[0].path + "/unused.sock", kinds: BuiltinKinds.registry)
        configuration.roots = roots.map(\.path)
        configuration.ruleSources = ShippedModules.sources(environment: [:])
        let core = DaemonCore(
            configuration: configuration, version: "test", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            eventLog: nil, notifier: SystemdNotifier(environment: [:]), watcher: FakeWatchEventSource())
        await core.start()
        return core
    }

    /// Evaluations by rule entry, as `reswatch metrics` shows them.
    func evaluations(_ core: DaemonCore) async -> [String: Int] {
        var counts: [String: Int] = [:]
        for match in await core.metricsText().matches(of: /reswatch_rule_evaluations_total\{rule="([^"]+)",kind="[^"]+"\} (\d+)/) {
            counts[String(match.1)] = Int(match.2)
        }
        return counts
    }

    @Test func countsAddUpOverJobsAndOutliveTheirRoot() async throws {
        let trees = [try TempTree(Fixtures.iconSets(3)), try TempTree(Fixtures.iconSets(5))]
        let core = await core(trees)
        let scanned = await evaluations(core)
        #expect(!scanned.isEmpty && scanned.values.allSatisfy { $0 > 0 }, "\(scanned)")
        _ = try await core.removeRoot(trees[0].path)
        #expect(await evaluations(core) == scanned, "a counter does not fall when a root goes")
        _ = try await core.recheck(root: trees[1].path)
        let rechecked = await evaluations(core)
        #expect(Set(rechecked.keys) == Set(scanned.keys))
        for (rule, count) in scanned {
            #expect((rechecked[rule] ?? 0) > count, "\(rule): the recheck's evaluations are added")
        }
        await core.stop()
    }
}
