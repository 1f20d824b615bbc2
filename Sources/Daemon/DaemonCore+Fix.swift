import Findings
import Foundation
import Repair
import ReswatchProtocol
import RuleEngine
import SystemCalls

/// The socket's `fix`: the repair plan made and carried out on the root's own engine thread (the
/// plan is made from the engine's current findings, and applied in the same job, so nothing moves
/// between the two); the watcher then sees the files change and the engine re-validates them.
extension DaemonCore {
    package func fix(_ params: FixParams) async throws(RPCError) -> FixResult {
        let path = FileSystem.absolutePath(sentPath(params.path))
        guard let root = roots.keys.filter({ path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }).max(by: { $0.count < $1.count })
        else { throw .notFound("\(path) is not under a watched root (watch/list shows the roots)") }
        let scope = path == root ? "" : String(path.dropFirst(root == "/" ? 1 : root.count + 1))
        let choices: FixChoices
        do throws(FixChoiceProblem) {
            choices = try FixChoices(only: params.only, background: params.background, singleSize: params.singleSize)
        } catch { throw .invalidParams(error.message) }
        let only = choices.only
        let apply = params.apply
        let line = params.line
        let repairOptions = choices.options
        let outcome = FixOutcome()
        _ = await runEngine(root) { engine in
            let findings = engine.diagnostics.filter {
                if let line { return $0.path == scope && $0.line == line }
                return scope.isEmpty || RelativePath.isWithin($0.path, scope)
            }
            let plan = Repairer.plan(
                root: engine.root, diagnostics: findings, projects: engine.projectContexts, only: only, options: repairOptions)
            var journal: Result<String?, FixError> = .success(nil)
            if apply && !plan.isEmpty {
                do throws(FixError) { journal = .success(try FixJournal.apply(plan)) } catch { journal = .failure(error) }
            }
            outcome.set(plan, journal)
            return DiagnosticDelta()
        }
        guard let (plan, journal) = outcome.get() else { throw .notFound("\(root) stopped being watched") }
        let written: String?
        switch journal {
        case .failure(let error): throw .failed(error.description)
        case .success(let j): written = j
        }
        return FixResult(
            root: root,
            repairs: plan.repairs.map { repair in
                FixResult.Repair(
                    rule: repair.finding.rule, path: repair.finding.path, title: repair.title,
                    changes: repair.changes.map { change in
                        switch change {
                        case .rename(let from, let to): FixResult.Change(kind: "rename", path: from, to: to)
                        case .remove(let path, _): FixResult.Change(kind: "remove", path: path)
                        case .write(let path, let original, _): FixResult.Change(kind: original == nil ? "create" : "edit", path: path)
                        }
                    })
            },
            left: plan.left.map { FixResult.Left(rule: $0.finding.rule, path: $0.finding.path, line: $0.finding.line, reason: $0.reason) },
            applied: written != nil, journal: written, generation: generation)
    }
}

/// The plan and the journal, handed from the engine's thread to the actor.
private final class FixOutcome: @unchecked Sendable {
    // @unchecked: written once on the engine's queue before the job returns, read after the await.
    private let lock = NSLock()
    private var value: (RepairPlan, Result<String?, FixError>)?

    func set(_ plan: RepairPlan, _ journal: Result<String?, FixError>) { lock.withLock { value = (plan, journal) } }
    func get() -> (RepairPlan, Result<String?, FixError>)? { lock.withLock { value } }
}
