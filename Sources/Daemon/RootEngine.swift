import Dispatch
import Findings
import Foundation
import ReswatchProtocol
import RuleEngine
import SystemCalls

/// One root's engine, driven off the daemon's actor: every job runs on a serial queue of its own
/// (a Dispatch thread, not the cooperative pool, so a 60-second scan of one root blocks neither
/// the actor nor the Swift tasks that answer clients). The actor never touches the engine; it
/// reads what each job returns (`EngineSummary`, the delta) instead.
final class EngineWorker: @unchecked Sendable {
    // @unchecked: `engine` is used only inside jobs on `queue`, which runs one at a time.
    private let engine: Engine
    private let queue: DispatchQueue

    init(_ engine: sending Engine) {
        self.engine = engine
        queue = DispatchQueue(label: "reswatch.engine", qos: .utility)
    }

    func run(_ job: @escaping @Sendable (Engine) -> DiagnosticDelta) async -> (DiagnosticDelta, EngineSummary) {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                let started = ContinuousClock.now
                let delta = job(engine)
                let summary = EngineSummary(engine)
                // A big job (a scan, a rescan) leaves its temporaries' pages in malloc's arenas.
                if ContinuousClock.now - started > .milliseconds(100) { ProcessMemory.releaseFreePages() }
                continuation.resume(returning: (delta, summary))
            }
        }
    }
}

/// What `status` shows of a root, taken after each engine job.
struct EngineSummary: Sendable {
    var files = 0
    var projects = 0
    /// What of the root reswatch judges: none of it is said, never a quiet "no problems".
    var coverage = Coverage()
    var ruleErrors: [ModuleError] = []
    /// Evaluations and time per rule so far (the metrics).
    var rules: [RuleMetric] = []

    init() {}

    init(_ engine: Engine) {
        files = engine.fileCount
        projects = engine.projectContexts.count
        coverage = engine.coverage
        ruleErrors = engine.ruleErrors
        rules = engine.ruleMetrics
    }
}

/// A root's current diagnostics as the actor knows them: the engine's deltas applied in order
/// (a multiset, as the engine's own store is). Costs what a delta holds, never the tree's size.
struct DiagnosticStore: Sendable {
    private var counts: [Diagnostic: Int] = [:]
    private(set) var bySeverity: [Severity: Int] = [:]
    private var byRule: [String: Int] = [:]

    func count(of rule: String) -> Int { byRule[rule] ?? 0 }

    mutating func apply(_ delta: DiagnosticDelta) {
        for d in delta.removed {
            guard let n = counts[d] else { continue }
            counts[d] = n > 1 ? n - 1 : nil
            bySeverity[d.severity, default: 0] -= 1
            byRule[d.rule, default: 0] -= 1
        }
        for d in delta.added {
            counts[d, default: 0] += 1
            bySeverity[d.severity, default: 0] += 1
            byRule[d.rule, default: 0] += 1
        }
    }

    var all: [Diagnostic] {
        counts.flatMap { repeatElement($0.key, count: $0.value) }.sorted(by: Diagnostic.stableOrder)
    }

    var isEmpty: Bool { counts.isEmpty }
}

/// A watched root: its engine, its state, and the lock that keeps its engine jobs one at a time
/// and their deltas published in order.
struct WatchedRoot {
    let worker: EngineWorker
    /// Tells this root from a later one at the same path (removed and added again meanwhile).
    let token: UInt64
    /// One state, with the reason where there is one.
    enum Health: Equatable {
        case scanning, ready
        case degraded(reason: String)
    }

    var health = Health.scanning
    var lastChange: Date?
    var recrawls = 0
    /// The watch is established and the follow-up rescan has run.
    var watchConfirmed = false
    var summary = EngineSummary()
    var diagnostics = DiagnosticStore()
    /// An engine job is running; others wait here in turn.
    var busy = false
    var waiting: [CheckedContinuation<Void, Never>] = []

    var state: RootStatus.State {
        switch health {
        case .scanning: .scanning
        case .ready: .ready
        case .degraded: .degraded
        }
    }

    var reason: String? {
        if case .degraded(let reason) = health { reason } else { nil }
    }

    /// Ready, or degraded for `reason` (the watcher's account of the root).
    mutating func watched(degradedBecause reason: String?) { health = reason.map { .degraded(reason: $0) } ?? .ready }
}
