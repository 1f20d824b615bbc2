import ImageFacts
import ProjectModel
import RuleKit
import Synchronization

/// What every evaluation of a batch reads from, held once for the batch: each evaluation's
/// context refers to it (and to its project context and rule by index) instead of holding
/// copies. A context used to copy the tree (some fifteen buffers), its project context (some
/// thirty strings, arrays and sets) and its rule's id and allowed findings, each retained when
/// the context was made and released when it went: 100,000 times in a scan, with both cores
/// counting on the same buffers. Each worker's run of a batch makes its own, so its count is
/// that thread's. 100k files, the daemon's CPU time to `ready`: 3.61 → 3.03 s (5 runs each).
///
/// The project contexts are lent in place (`context(at:)`), from memory the batch owns: read
/// through an Array's subscript, each `context.project.x` a rule wrote copied the whole context
/// (every field retained, then released). (The tree is best a stored `let`: lent the same way,
/// every method called on it copied it, ten times as many copies as before.)
final class EvaluationBatch {
    let root: String
    let tree: ResourceTree
    let facts: FactsCache
    let parsed: ParsedCache
    let subjectIndex: SubjectIndex
    /// The project contexts, by the index each evaluation names (`context(at:)`).
    private let contexts: UnsafeMutableBufferPointer<ProjectContext>
    /// Each rule with the finding ids it may report, by the index each evaluation names.
    let plans: [Evaluator.Plan]
    /// What this batch's evaluations read, when the caller keeps it (the daemon, to know what to
    /// re-run); a one-shot check does not, and does not pay for hashing every path read.
    let recordsInputs: Bool
    /// Each project's subjects of a kind that ship (`Evaluation.subjects`), found once per batch:
    /// the filter asks for each subject which target holds it, and every evaluation of the
    /// project asked again (a fifth of a whole repository's check).
    let shippedSubjects = Mutex<[ShippedSubjectsKey: [Subject]]>([:])

    struct ShippedSubjectsKey: Hashable {
        let context: Int
        let kind: SubjectKind
    }

    init(
        root: String, tree: ResourceTree, facts: FactsCache, parsed: ParsedCache, subjectIndex: SubjectIndex,
        contexts: [ProjectContext], plans: [Evaluator.Plan], recordsInputs: Bool
    ) {
        self.root = root
        self.tree = tree
        self.facts = facts
        self.parsed = parsed
        self.subjectIndex = subjectIndex
        self.contexts = .allocate(capacity: contexts.count)
        _ = self.contexts.initialize(from: contexts)
        self.plans = plans
        self.recordsInputs = recordsInputs
    }

    deinit {
        contexts.deinitialize()
        contexts.deallocate()
    }

    /// The project context at `index`, in place; valid while the batch lives.
    func context(at index: Int) -> UnsafePointer<ProjectContext> {
        precondition(contexts.indices.contains(index), "EvaluationBatch: no project context \(index)")
        return UnsafePointer(contexts.baseAddress! + index)
    }
}
