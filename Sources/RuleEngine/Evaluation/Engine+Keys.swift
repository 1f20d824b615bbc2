import Dispatch
import RuleKit
import Synchronization

/// Which evaluations a scan runs: every subject's key under its project's rules.
extension Engine {
    func allEvalKeys() -> [EvalKey] { allEvaluations().keys }

    /// Every evaluation of a scan, each with its subject's node (planning needs the node, and
    /// looking it up again from the path was most of the serial step between walk and evaluation).
    func allEvaluations() -> (keys: [EvalKey], nodes: [ResourceTree.NodeID]) {
        // A project's rules for a kind are picked once per (project, kind), not per subject, and
        // here: resolving a project records its findings. Building each subject's path and asking
        // every rule whether it applies is most of the work (10 ms for 11k files): on every core,
        // in chunks whose keys are put back in order. (The daemon's resident set at 1M files does
        // not tell the two apart: 113-169 MB built on two threads, 123-158 MB on one, across runs.)
        var chunks: [(kind: SubjectKind, nodes: ArraySlice<ResourceTree.NodeID>, rules: [LoadedRule])] = []
        subjects.forEachGroup { kind, nodes, dir in
            let applicable = projectState(dir).rules.rules.filter { $0.rule.subjectKinds.contains(kind) }
            guard !applicable.isEmpty else { return }
            let all = Array(nodes)
            for start in stride(from: 0, to: all.count, by: 512) {
                chunks.append((kind, all[start..<min(all.count, start + 512)], applicable))
            }
        }
        let tree = self.tree
        let parts = chunks
        let keys = Mutex([([EvalKey], [ResourceTree.NodeID])](repeating: ([], []), count: parts.count))
        let build: @Sendable (Int) -> Void = { i in
            var local: [EvalKey] = []
            var nodes: [ResourceTree.NodeID] = []
            let rules = parts[i].rules
            for node in parts[i].nodes {
                let s = Subject(parts[i].kind, tree.path(of: node))
                // By index: `for r in rules` copied each rule (its existential and three strings)
                // for every subject.
                for j in rules.indices where rules[j].rule.applies(to: s) {
                    local.append(EvalKey(rule: rules[j].source, subject: s))
                    nodes.append(node)
                }
            }
            keys.withLock { $0[i] = (local, nodes) }
        }
        if parts.count < 2 {
            for i in parts.indices { build(i) }
        } else {
            DispatchQueue.concurrentPerform(iterations: parts.count, execute: build)
        }
        return keys.withLock { parts in (parts.flatMap(\.0), parts.flatMap(\.1)) }
    }

    /// The evaluations of one subject under a project's rules.
    func evalKeys(_ subject: Subject, project: String) -> [EvalKey] {
        let rules = projects[project]?.rules ?? (!subjects.hasMembers(project, in: tree) ? baseRules : projectState(project).rules)
        return rules.rules.filter { $0.rule.subjectKinds.contains(subject.kind) && $0.rule.applies(to: subject) }
            .map { EvalKey(rule: $0.source, subject: subject) }
    }
}
