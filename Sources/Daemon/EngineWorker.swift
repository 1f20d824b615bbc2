import Dispatch
import Findings
import Foundation
import ReswatchProtocol
import RuleEngine
import Synchronization

/// One root's engine, driven off the daemon's actor: every job runs on a serial queue of the
/// worker's (a Dispatch thread, not the cooperative pool, so a 60-second scan of one root blocks
/// neither the actor nor the Swift tasks that answer clients). The actor never touches the
/// engine; it reads what each job returns (`EngineSummary`, the delta) instead.
///
/// A queue of its own, not a lock and Dispatch's global utility queue (0.2 kB less a root): a
/// serial queue targets the overcommitting root queue, so a change in one root gets a thread at
/// once while two other roots' scans (the whole-root pool's width on 2 cores) keep Dispatch's
/// threads busy in `concurrentPerform`. On the global queue, which does not overcommit, such a
/// change waited 0.76 s in a test program on 2 cores, and none on a queue of its own (with one
/// scan running, neither waited).
///
/// The queue is made when a job comes and let go when the last job in flight ends: a root at
/// rest holds none (libdispatch's queue and its label were 160 bytes a root, for 1,000 roots
/// 0.16 MB; making one takes a microsecond). Jobs that overlap share it, so they still run one
/// at a time, whatever the caller does.
final class EngineWorker: @unchecked Sendable {
    // @unchecked: `engine` is used only inside jobs on the worker's queue, which runs one at a
    // time, and there is one queue while any job is in flight (`lane`).
    private let engine: Engine
    private let lane = Mutex(Lane())

    private struct Lane {
        var queue: DispatchQueue?
        var inFlight = 0
    }

    init(_ engine: sending Engine) {
        self.engine = engine
    }

    /// Whether the worker holds a queue now (one while a job is in flight, none at rest).
    var holdsQueue: Bool { lane.withLock { $0.queue != nil } }
    /// Jobs handed to the worker and not finished.
    var jobsInFlight: Int { lane.withLock { $0.inFlight } }

    /// Runs `job`; `long`: it took over 100 ms, and left its temporaries' pages in malloc's
    /// arenas (the caller decides when to give them back: `EngineSlots`).
    func run(_ job: @escaping @Sendable (Engine) -> DiagnosticDelta) async -> (DiagnosticDelta, EngineSummary, long: Bool) {
        let queue = lane.withLock { lane in
            lane.inFlight += 1
            if let queue = lane.queue { return queue }
            let queue = DispatchQueue(label: "reswatch.engine", qos: .utility)
            lane.queue = queue
            return queue
        }
        return await withCheckedContinuation { continuation in
            queue.async { [self] in
                let started = ContinuousClock.now
                let delta = job(engine)
                let summary = EngineSummary(engine)
                let long = ContinuousClock.now - started > .milliseconds(100)
                lane.withLock { lane in
                    lane.inFlight -= 1
                    if lane.inFlight == 0 { lane.queue = nil }
                }
                continuation.resume(returning: (delta, summary, long))
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
