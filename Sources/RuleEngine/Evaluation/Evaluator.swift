import Dispatch
import Foundation
import ImageFacts
import ProjectModel
import Synchronization

/// Runs a planned batch of evaluations against one snapshot of the tree and the subject index:
/// on every core for a scan, inline for the handful a file change needs. It returns only the
/// records worth keeping; the engine stores them (docs/contributing/overview.md).
struct Evaluator: Sendable {
    typealias Record = EvaluationStore.Record

    /// One evaluation: its key, and its rule and project context by index into the batch's plans
    /// and contexts.
    struct Work: Sendable {
        let key: EvaluationStore.Key
        let plan: Int
        let context: Int
        /// The folder's node: a folder's evaluations run side by side (below).
        let group: ResourceTree.NodeID
        /// The subject's node.
        let node: ResourceTree.NodeID
    }

    /// A rule as the batch runs it, with the finding ids it may report.
    struct Plan: Sendable {
        let rule: LoadedRule
        let allowed: Set<String>
    }

    let root: String
    let tree: ResourceTree
    let subjects: SubjectIndex
    let facts: FactsCache
    let parsed: ParsedCache
    /// The daemon keeps inputs (to know what to re-run) and timings; a one-shot check keeps only findings.
    let keepInputs: Bool
    let cores: Int

    /// Runs `work` and returns it in the order it ran, the records to keep (by index into that
    /// order) and each plan's timings.
    func run(_ work: [Work], plans: [Plan], contexts: [ProjectContext]) -> (
        ran: [Work], records: [(Int, Record)], timings: [Int: RuleStat]
    ) {
        // A folder's evaluations run side by side (a set and its images, a folder of PNGs): the
        // daemon's bounded facts cache still holds an image when its second reader asks, and
        // reads stay close on disk. One sort of integers (group, then position: the order a
        // stable sort gives), then one copy of each item: sorting the items themselves moved
        // structs of strings around, retained and released at each move, on one thread.
        var order = work.indices.map { UInt64(work[$0].group) << 32 | UInt64(UInt32(truncatingIfNeeded: $0)) }
        order.sort()
        let items = order.map { work[Int($0 & 0xFFFF_FFFF)] }
        // Only the records to keep come back (by work index): one that found nothing and read
        // only its own file is not kept by the daemon, and a one-shot check keeps only findings.
        let results = Mutex([(Int, Record)]())
        let timings = Mutex([Int: RuleStat]())
        let root = self.root
        let snapshot = tree
        let index = subjects
        let facts = self.facts
        let parsed = self.parsed
        let keepInputs = self.keepInputs
        // Batches keep lock traffic low; several batches per core keep both cores busy to the end.
        let batchSize = max(1, min(256, items.count / (cores * 8)))
        let batches = (items.count + batchSize - 1) / batchSize
        let runBatch: @Sendable (Int) -> Void = { b in
            let batch = EvaluationBatch(
                root: root, tree: snapshot, facts: facts, parsed: parsed, subjectIndex: index, contexts: contexts, plans: plans,
                recordsInputs: keepInputs)
            var local: [(Int, Record)] = []
            var localTimes: [Int: RuleStat] = [:]
            // The folder the evaluations read from, built once for each run of its evaluations.
            var anchor: (group: ResourceTree.NodeID, anchor: ResourceTree.Anchor?)?
            for i in (b * batchSize)..<min(items.count, (b + 1) * batchSize) {
                // Read field by field: a copy of the whole item (its strings, its rule's id shared
                // by every item of the rule) was 2 % of a check in retains and releases.
                let subject = items[i].key.subject
                let node = items[i].node
                let group = items[i].group
                let planIndex = items[i].plan
                // A folder that cannot be read is io.unreadable (the scan reports it); what is in it
                // is unknown, so nothing is judged about it (no invented "Contents.json missing").
                if snapshot.isUnreadable(node: node) {
                    if keepInputs { local.append((i, Record(inputs: [.listing(subject.path)], diagnostics: []))) }
                    continue
                }
                if anchor?.group != group { anchor = (group, snapshot.anchor(group)) }
                let ctx = Evaluation(
                    batch: batch, subject: subject, contextIndex: items[i].context, ruleIndex: planIndex, anchor: anchor?.anchor)
                if keepInputs {
                    let start = DispatchTime.now().uptimeNanoseconds
                    plans[planIndex].rule.rule.evaluate(subject, in: ctx)
                    localTimes[planIndex, default: RuleStat()].add(nanoseconds: DispatchTime.now().uptimeNanoseconds &- start)
                } else {
                    plans[planIndex].rule.rule.evaluate(subject, in: ctx)
                }
                if let record = Self.record(of: ctx, keepingInputs: keepInputs) { local.append((i, record)) }
            }
            results.withLock { $0 += local }
            if !localTimes.isEmpty { timings.withLock { t in for (k, v) in localTimes { t[k, default: RuleStat()].merge(v) } } }
        }
        // A handful of evaluations (a typical file change) runs inline: handing them to worker
        // threads costs more than it saves.
        if items.count <= 8 {
            for b in 0..<batches { runBatch(b) }
        } else {
            DispatchQueue.concurrentPerform(iterations: batches, execute: runBatch)
        }
        return (items, results.withLock { $0 }, timings.withLock { $0 })
    }

    /// What to keep of an evaluation that ran: nil when it found nothing and read nothing but its
    /// own subject's file (the context does not record that one), since it is re-run directly
    /// when that file changes; a one-shot check keeps only findings.
    static func record(of ctx: Evaluation, keepingInputs keepInputs: Bool) -> Record? {
        guard keepInputs else { return ctx.diagnostics.isEmpty ? nil : Record(inputs: [], diagnostics: ctx.diagnostics) }
        if ctx.inputs.isEmpty && ctx.diagnostics.isEmpty { return nil }
        let inputs = EvaluationStore.compacted(ctx.inputs, subject: ctx.subject)
        let selfOnly = inputs.isEmpty || (inputs.count == 1 && inputs.first == .file(ctx.subject.path))
        if selfOnly && ctx.diagnostics.isEmpty { return nil }
        return Record(inputs: Array(inputs), diagnostics: ctx.diagnostics)
    }
}
