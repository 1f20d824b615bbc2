import Dispatch
import Findings
import Foundation
import ReswatchProtocol
import RuleEngine

/// One root's engine, driven off the daemon's actor: every job runs on a serial queue of its own
/// (a Dispatch thread, not the cooperative pool, so a 60-second scan of one root blocks neither
/// the actor nor the Swift tasks that answer clients). The actor never touches the engine; it
/// reads what each job returns (`EngineSummary`, the delta) instead.
///
/// A queue of its own, not a lock and Dispatch's global utility queue (0.2 kB less a root): a
/// serial queue targets the overcommitting root queue, so a change in one root gets a thread at
/// once while two other roots' scans (the whole-root pool's width on 2 cores) keep Dispatch's
/// threads busy in `concurrentPerform`. On the global queue, which does not overcommit, such a
/// change waited 0.76 s in a test program on 2 cores, and none on a queue of its own (with one
/// scan running, neither waited).
final class EngineWorker: @unchecked Sendable {
    // @unchecked: `engine` is used only inside jobs on `queue`, which runs one at a time.
    private let engine: Engine
    private let queue: DispatchQueue

    init(_ engine: sending Engine) {
        self.engine = engine
        queue = DispatchQueue(label: "reswatch.engine", qos: .utility)
    }

    /// Runs `job`; `long`: it took over 100 ms, and left its temporaries' pages in malloc's
    /// arenas (the caller decides when to give them back: `EngineSlots`).
    func run(_ job: @escaping @Sendable (Engine) -> DiagnosticDelta) async -> (DiagnosticDelta, EngineSummary, long: Bool) {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                let started = ContinuousClock.now
                let delta = job(engine)
                let summary = EngineSummary(engine)
                continuation.resume(returning: (delta, summary, ContinuousClock.now - started > .milliseconds(100)))
            }
        }
    }
}

/// What `status` shows of a root, taken after each engine job.
struct EngineSummary: Sendable {
    var files = 0
    var projects = 0
    /// Subjects and projects of the root reswatch judges (`Coverage.judgedCount`).
    var judged = 0
    /// When it judges none of the root: what was found instead (`Coverage.foundInstead`), said,
    /// never a quiet "no problems". Only these two of the engine's `Coverage` are kept: its two
    /// tables by kind were 0.4 kB a root, for 1,000 roots 0.4 MB (docs/performance.md).
    var nothingJudged: String?
    var ruleErrors: [ModuleError] = []
    /// Evaluations and time per rule in this job (the daemon adds them to its total, the
    /// metrics', and keeps none per root).
    var rules: [RuleMetric] = []

    init() {}

    init(_ engine: Engine) {
        files = engine.fileCount
        projects = engine.projectContexts.count
        let coverage = engine.coverage
        judged = coverage.judgedCount
        nothingJudged = coverage.isEmpty ? coverage.foundInstead : nil
        ruleErrors = engine.ruleErrors
        rules = engine.takeRuleMetrics()
    }
}
