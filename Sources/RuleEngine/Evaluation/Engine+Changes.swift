import ProjectModel
import RuleKit
import SystemCalls

/// A change to the tree, carried through: the inputs it touched, the subjects it moved, the
/// project contexts it changed, and the evaluations that read any of them.
extension Engine {
    func process(_ change: ResourceTree.Change, touched: Set<String>) -> DiagnosticDelta {
        beginDelta()
        var changed = changedInputs(change, touched: touched)
        var dirty = Set<EvalKey>()
        subjects.changes = []
        let fullKeyScan = moveSubjects(change, changed: &changed, dirty: &dirty)
        // A vendored folder came or went (its parent's listing alone changed: it is not walked).
        if tree.vendoredGeneration != vendoredSeen { refreshScanDiagnostics() }
        let rescoped = refreshContexts(changed)
        dirty.formUnion(readers(of: changed))
        // After a re-scope or a context change, every subject without a record is evaluated.
        if fullKeyScan {
            for key in allEvalKeys() where !store.contains(key) { dirty.insert(key) }
        } else {
            for dir in rescoped {
                for subject in subjects.subjects(inProject: dir, tree: tree) { dirty.formUnion(evalKeys(subject, project: dir)) }
            }
        }
        let run = evaluate(Array(dirty))
        // Nothing refers to the removed nodes any more: their ids may be reused.
        tree.reclaim(change.removedNodes)
        return endDelta(evaluationsRun: run)
    }

    /// What a change touched, as evaluation inputs; the facts of changed files are forgotten.
    func changedInputs(_ change: ResourceTree.Change, touched: Set<String>) -> Set<EvaluationInput> {
        var changed = Set<EvaluationInput>()
        for p in change.added + change.removed + change.modified { changed.insert(.file(p)) }
        // A path reported as changed is re-validated even if its stat looks the same: kernel
        // timestamps are coarse (jiffies), so two same-size writes a few ms apart can share a key.
        for p in touched where tree.isFile(p) {
            changed.insert(.file(p))
            facts.forget(tree.absolute(p))
            parsed.forget(tree.absolute(p))
        }
        for d in change.listings { changed.insert(.listing(d)) }
        for p in change.removed {
            facts.forget(tree.absolute(p))
            parsed.forget(tree.absolute(p))
        }
        return changed
    }

    /// Subjects added and removed with their paths: the evaluations of the old ones dropped, the
    /// new ones dirty. Returns whether projects were re-scoped (every key is then looked at).
    func moveSubjects(_ change: ResourceTree.Change, changed: inout Set<EvaluationInput>, dirty: inout Set<EvalKey>) -> Bool {
        guard !change.added.isEmpty || !change.removed.isEmpty else { return false }
        var fullKeyScan = false
        let markerMoved = (change.added + change.removed).contains(where: ProjectIndex.isMarker)
        let newIndex = markerMoved ? ProjectIndex(tree: tree) : projectIndex
        if markerMoved && newIndex != projectIndex {
            // Projects were re-scoped: rebuild every subject's project (rare).
            projectIndex = newIndex
            // A folder outside every project is judged by whether projects exist elsewhere.
            dropAllProjects()
            rebuildSubjects()
            fullKeyScan = true
        } else {
            // O(change): only the added and removed paths' subjects move.
            var affectedProjects = Set<String>()
            for node in change.removedNodes { affectedProjects.formUnion(subjects.unsetAll(node, tree: tree)) }
            for p in change.added { affectedProjects.formUnion(addSubjects(at: p)) }
            for project in affectedProjects { updateProjectSubject(project) }
            if change.listings.contains(where: tree.isUnreadable) || !scanDiagnostics.isEmpty { refreshScanDiagnostics() }
        }
        for (subject, old, new) in subjects.changes {
            if let old {
                changed.insert(.subjects(subject.kind, project: old))
                for key in evalKeys(subject, project: old) { drop(key) }
            }
            if let new {
                changed.insert(.subjects(subject.kind, project: new))
                dirty.formUnion(evalKeys(subject, project: new))
            }
        }
        return fullKeyScan
    }

    /// Contexts whose own inputs changed are resolved again; a project left without members goes.
    /// Returns the projects whose context or rules changed (every subject in them is re-evaluated).
    func refreshContexts(_ changed: Set<EvaluationInput>) -> Set<String> {
        var rescoped = Set<String>()
        for (dir, state) in projects where state.inputs.contains(where: changed.contains) || !subjects.hasMembers(dir, in: tree) {
            if !subjects.hasMembers(dir, in: tree) {
                delta.drop(projects.removeValue(forKey: dir)?.diagnostics ?? [])
                for key in store.keys {
                    let project = subjects.project(of: key.subject, in: tree)
                    if project == nil || project == dir { drop(key) }
                }
                continue
            }
            let fresh = resolveProject(dir)
            if fresh.contexts != state.contexts || fresh.rules.rules.map(\.source) != state.rules.rules.map(\.source)
                || fresh.rules.errors != state.rules.errors
            {
                for key in store.keys where subjects.project(of: key.subject, in: tree) == dir { drop(key) }
                rescoped.insert(dir)
            }
            delta.drop(state.diagnostics)
            delta.store(fresh.diagnostics)
            projects[dir] = fresh
        }
        return rescoped
    }

    /// The evaluations that read a changed input.
    func readers(of changed: Set<EvaluationInput>) -> Set<EvalKey> {
        var dirty = Set<EvalKey>()
        for input in changed {
            dirty.formUnion(store.readers(of: input))
            // Evaluations that read only their own file and found nothing keep no record (most
            // images): a change to that file re-runs them directly.
            guard case .file(let p) = input else { continue }
            // A listed folder stands for the files read in it (EvaluationStore.compacted).
            dirty.formUnion(store.readers(of: .listing(RelativePath.parent(p))))
            guard let node = tree.node(p) else { continue }
            for kind in [SubjectKind.image, .infoPlist, .assetSet] {
                if let project = subjects.project(of: kind, node) { dirty.formUnion(evalKeys(Subject(kind, p), project: project)) }
            }
        }
        return dirty
    }
}
