import Dispatch
import Foundation
import Synchronization

/// What one engine run changed.
public struct DiagnosticDelta: Sendable {
    public var added: [Diagnostic] = []
    public var removed: [Diagnostic] = []
    /// Rule evaluations run to produce it.
    public var evaluationsRun = 0
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }

    public init(added: [Diagnostic] = [], removed: [Diagnostic] = [], evaluationsRun: Int = 0) {
        self.added = added
        self.removed = removed
        self.evaluationsRun = evaluationsRun
    }
}

/// The incremental validation engine for one watched root. Each rule evaluation on a subject records
/// what it read; a change re-runs only the evaluations whose inputs changed (plus new subjects), so
/// after any sequence of changes the state equals a cold run. Not thread-safe: one owner drives it;
/// evaluations themselves run in parallel inside a call.
public final class Engine {
    struct EvalKey: Hashable, Sendable {
        let rule: String  // LoadedRule.source
        let subject: Subject
    }

    struct EvalRecord: Sendable {
        var inputs: Set<EvaluationInput>
        var diagnostics: [Diagnostic]
    }

    struct ProjectState: Sendable {
        var context: ProjectContext
        var inputs: Set<EvaluationInput>
        var rules: RuleSet
    }

    public let root: String
    public let registry: KindRegistry
    public private(set) var baseRules: RuleSet
    public private(set) var tree: ResourceTree
    public let facts = FactsCache()
    let parsed = ParsedCache()
    private var projectIndex: ProjectIndex
    private var projects: [String: ProjectState] = [:]
    /// Subject → its project directory.
    private var subjects: [Subject: String] = [:]
    private var subjectsByProject: [String: [Subject]] = [:]
    private var records: [EvalKey: EvalRecord] = [:]
    private var dependents: [EvaluationInput: Set<EvalKey>] = [:]
    private var scanDiagnostics: [Diagnostic] = []
    /// Total evaluations run since creation (tests use it to prove incrementality).
    public private(set) var evaluationsRun = 0
    public private(set) var generation = 0

    /// False for one-shot runs (`check`): no reverse index of inputs is kept, since nothing will change.
    public let incremental: Bool

    public init(
        root: String, rules: RuleSet, registry: KindRegistry, excludes: Set<String> = ResourceTree.defaultExcludes,
        incremental: Bool = true
    ) {
        self.root = root
        self.incremental = incremental
        self.baseRules = rules
        self.registry = registry
        self.tree = ResourceTree(root: root, excludes: excludes)
        self.projectIndex = ProjectIndex(tree: tree)
    }

    // MARK: - public API

    /// Scans everything and evaluates every rule on every subject.
    @discardableResult
    public func fullScan() -> DiagnosticDelta {
        let before = diagnostics
        _ = tree.scanAll()
        facts.forgetAll()
        records = [:]
        dependents = [:]
        projects = [:]
        rebuildSubjects()
        let run = evaluate(Set(allEvalKeys()))
        generation += 1
        var delta = Self.difference(before, diagnostics)
        delta.evaluationsRun = run
        return delta
    }

    /// Re-validates after `paths` (absolute, or relative to the root) changed on disk.
    @discardableResult
    public func apply(changedPaths paths: some Sequence<String>) -> DiagnosticDelta {
        var change = ResourceTree.Change()
        for p in paths {
            guard let rel = relative(p) else { continue }
            change.merge(tree.refresh(rel))
        }
        return process(change, touched: Set(paths.compactMap { relative($0) }))
    }

    /// Re-lists and re-stats everything (after an inotify overflow); only real differences re-run.
    @discardableResult
    public func rescan() -> DiagnosticDelta {
        let oldFiles = tree.files
        let oldDirs = Set(tree.directories.keys).union(tree.unreadable.keys)
        var fresh = ResourceTree(root: root, excludes: tree.excludes)
        _ = fresh.scanAll()
        var change = ResourceTree.Change()
        for (path, status) in fresh.files {
            if let old = oldFiles[path] {
                if old != status { change.modified.append(path) }
            } else {
                change.added.append(path)
                change.listings.insert(RelativePath.parent(path))
            }
        }
        for path in oldFiles.keys where fresh.files[path] == nil {
            change.removed.append(path)
            change.listings.insert(RelativePath.parent(path))
        }
        let newDirs = Set(fresh.directories.keys).union(fresh.unreadable.keys)
        for d in newDirs.subtracting(oldDirs) { change.added.append(d); change.listings.insert(RelativePath.parent(d)) }
        for d in oldDirs.subtracting(newDirs) { change.removed.append(d); change.listings.insert(RelativePath.parent(d)) }
        for d in newDirs.intersection(oldDirs) where fresh.directories[d] != tree.directories[d] { change.listings.insert(d) }
        tree = fresh
        return process(change, touched: [])
    }

    /// Swaps the rule set (module reload) and re-runs everything that depends on rules.
    @discardableResult
    public func replaceRules(_ rules: RuleSet) -> DiagnosticDelta {
        let before = diagnostics
        baseRules = rules
        projects = [:]
        records = [:]
        dependents = [:]
        rebuildSubjects()
        let run = evaluate(Set(allEvalKeys()))
        generation += 1
        var delta = Self.difference(before, diagnostics)
        delta.evaluationsRun = run
        return delta
    }

    /// Every current diagnostic, in stable order.
    public var diagnostics: [Diagnostic] {
        (records.values.flatMap(\.diagnostics) + scanDiagnostics).sorted(by: Diagnostic.stableOrder)
    }

    /// The resolved context of every project, by directory.
    public var projectContexts: [ProjectContext] {
        projects.values.map(\.context).sorted { $0.directory < $1.directory }
    }

    /// Module load errors of the base set and of projects' own modules.
    public var ruleErrors: [ModuleError] {
        var seen = Set<ModuleError>()
        return (baseRules.errors + projects.values.flatMap { $0.rules.errors }).filter { seen.insert($0).inserted }
    }

    public var fileCount: Int { tree.files.count }
    public var subjectCount: Int { subjects.count }

    /// Rule sets in use (base plus each project's own modules).
    public func rules(forProject directory: String) -> RuleSet { projects[directory]?.rules ?? baseRules }

    // MARK: - internals

    func relative(_ path: String) -> String? {
        if path.hasPrefix("/") {
            if path == root { return "" }
            guard path.hasPrefix(root + "/") else { return nil }
            return RelativePath.normalize(String(path.dropFirst(root.count + 1)))
        }
        return RelativePath.normalize(path)
    }

    private func process(_ change: ResourceTree.Change, touched: Set<String>) -> DiagnosticDelta {
        let before = diagnostics
        var changed = Set<EvaluationInput>()
        for p in change.added + change.removed + change.modified { changed.insert(.file(p)) }
        // A path reported as changed is re-validated even if its stat looks the same: kernel
        // timestamps are coarse (jiffies), so two same-size writes a few ms apart can share a key.
        for p in touched where tree.files[p] != nil {
            changed.insert(.file(p))
            facts.forget(tree.absolute(p))
            parsed.forget(tree.absolute(p))
        }
        for d in change.listings { changed.insert(.listing(d)) }
        for p in change.removed { facts.forget(tree.absolute(p)); parsed.forget(tree.absolute(p)) }

        var dirty = Set<EvalKey>()
        let structural = !change.added.isEmpty || !change.removed.isEmpty
        if structural {
            let markerMoved = (change.added + change.removed).contains(where: ProjectIndex.isMarker)
            let newIndex = markerMoved ? ProjectIndex(tree: tree) : projectIndex
            let oldSubjects = subjects
            if markerMoved && newIndex != projectIndex {
                projectIndex = newIndex
                rebuildSubjects()
            } else {
                for p in change.removed { removeSubjects(at: p) }
                for p in change.added { addSubjects(at: p) }
                refreshProjectSubjects()
            }
            // Subjects that appeared, vanished or moved project.
            var touchedSets = Set<EvaluationInput>()
            for (s, project) in subjects where oldSubjects[s] != project {
                touchedSets.insert(.subjects(s.kind, project: project))
                if let old = oldSubjects[s] { touchedSets.insert(.subjects(s.kind, project: old)) }
            }
            for (s, project) in oldSubjects where subjects[s] == nil {
                touchedSets.insert(.subjects(s.kind, project: project))
            }
            changed.formUnion(touchedSets)
            for key in records.keys where subjects[key.subject] == nil || oldSubjects[key.subject] != subjects[key.subject] {
                drop(key)
            }
        }
        // Contexts whose own inputs changed.
        for (dir, state) in projects where !state.inputs.isDisjoint(with: changed) || subjectsByProject[dir] == nil {
            let fresh = resolveProject(dir)
            if subjectsByProject[dir] == nil {
                projects[dir] = nil
                for key in records.keys where subjects[key.subject] == dir { drop(key) }
                continue
            }
            if fresh.context != state.context || fresh.rules.rules.map(\.source) != state.rules.rules.map(\.source)
                || fresh.rules.errors != state.rules.errors
            {
                for key in records.keys where subjects[key.subject] == dir { drop(key) }
            }
            projects[dir] = fresh
        }
        for input in changed { dirty.formUnion(dependents[input] ?? []) }
        // New subjects (and subjects whose evaluations were dropped) need their evaluations.
        for key in allEvalKeys() where records[key] == nil { dirty.insert(key) }
        let run = evaluate(dirty)
        generation += 1
        var delta = Self.difference(before, diagnostics)
        delta.evaluationsRun = run
        return delta
    }

    private func allEvalKeys() -> [EvalKey] {
        var keys: [EvalKey] = []
        for (subject, dir) in subjects {
            let rules = projectState(dir).rules
            for r in rules.rules where r.rule.subjectKinds.contains(subject.kind) {
                keys.append(EvalKey(rule: r.source, subject: subject))
            }
        }
        return keys
    }

    private func projectState(_ dir: String) -> ProjectState {
        if let s = projects[dir] { return s }
        let s = resolveProject(dir)
        projects[dir] = s
        return s
    }

    private func resolveProject(_ dir: String) -> ProjectState {
        let recorder = TreeAccess(tree: tree)
        let context = ContextResolver.resolve(projectDirectory: dir, files: recorder)
        // A project's own modules: <project>/.reswatch/rules/*.yaml
        var rules = baseRules
        let moduleDir = RelativePath.join(dir, ".reswatch/rules")
        if case .success(let entries) = recorder.list(moduleDir) {
            var own = RuleSet()
            for e in entries where !e.isDirectory && (e.name.hasSuffix(".yaml") || e.name.hasSuffix(".yml")) {
                let path = RelativePath.join(moduleDir, e.name)
                switch recorder.read(path) {
                case .success(let bytes):
                    own.merge(RuleModuleLoader.parse(String(decoding: bytes, as: UTF8.self), file: tree.absolute(path), registry: registry))
                case .failure(let err):
                    own.add(errors: [ModuleError(file: tree.absolute(path), line: nil, message: "cannot read: \(err.reason)")])
                }
            }
            rules = rules.overlaid(with: own)
        }
        return ProjectState(context: context, inputs: recorder.inputs, rules: rules)
    }

    private func rebuildSubjects() {
        projectIndex = ProjectIndex(tree: tree)
        subjects = [:]
        // One pass over the listings: each directory's project and set-ness is computed once.
        for (dir, entries) in tree.directories where !Self.isModuleDirectory(dir) {
            let project = projectIndex.project(containing: dir)
            let parentIsSet = SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(dir)) != nil
            for e in entries {
                let path = RelativePath.join(dir, e.name)
                guard let s = SubjectClassifier.subject(path: path, name: e.name, isDirectory: e.isDirectory, parentIsAssetSet: parentIsSet)
                else { continue }
                subjects[s] = e.isDirectory ? projectIndex.project(containing: path) : project
            }
        }
        refreshProjectSubjects()
        for key in records.keys where subjects[key.subject] == nil { drop(key) }
    }

    private func addSubjects(at path: String, isDirectory: Bool? = nil) {
        let dir = isDirectory ?? tree.isDirectory(path)
        guard tree.contains(path), !Self.isModuleDirectory(RelativePath.parent(path)) else { return }
        for s in SubjectClassifier.subjects(for: path, isDirectory: dir) {
            subjects[s] = projectIndex.project(containing: dir ? path : RelativePath.parent(path))
        }
    }

    /// Project rule modules (`.reswatch/…`) are configuration, not resources.
    static func isModuleDirectory(_ dir: String) -> Bool {
        dir == ".reswatch" || dir.hasPrefix(".reswatch/") || dir.contains("/.reswatch")
    }

    private func removeSubjects(at path: String) {
        for kind in SubjectKind.allCases { subjects[Subject(kind, path)] = nil }
    }

    /// Project subjects follow the project directories; then rebuild the per-project index and
    /// the engine's own diagnostics (unreadable directories).
    private func refreshProjectSubjects() {
        for (s, _) in subjects where s.kind == .project { subjects[s] = nil }
        var dirs = projectIndex.directories
        for (_, p) in subjects { dirs.insert(p) }
        for d in dirs where tree.isDirectory(d) { subjects[Subject(.project, d)] = d }
        var byProject: [String: [Subject]] = [:]
        for (s, p) in subjects { byProject[p, default: []].append(s) }
        for k in byProject.keys { byProject[k]!.sort() }
        subjectsByProject = byProject
        scanDiagnostics = tree.unreadable.keys.sorted().map { dir in
            let reason = tree.unreadable[dir]!.reason
            return Diagnostic(
                rule: EngineRules.unreadable.id, severity: EngineRules.unreadable.severity, root: root,
                project: projectIndex.project(containing: dir), path: dir,
                message: "directory cannot be read (\(reason)); nothing below it is checked", fix: EngineRules.unreadable.fix)
        }
    }

    private func drop(_ key: EvalKey) {
        guard let record = records.removeValue(forKey: key) else { return }
        for input in record.inputs {
            dependents[input]?.remove(key)
            if dependents[input]?.isEmpty == true { dependents[input] = nil }
        }
    }

    /// Runs evaluations (in parallel) and stores their records.
    private func evaluate(_ keys: Set<EvalKey>) -> Int {
        guard !keys.isEmpty else { return 0 }
        struct Work: Sendable {
            let key: EvalKey
            let rule: LoadedRule
            let context: ProjectContext
            let allowed: Set<String>
        }
        var work: [Work] = []
        var rulesBySource: [String: [String: LoadedRule]] = [:]
        for key in keys {
            guard let dir = subjects[key.subject] else { continue }
            let state = projectState(dir)
            if rulesBySource[dir] == nil {
                rulesBySource[dir] = Dictionary(state.rules.rules.map { ($0.source, $0) }, uniquingKeysWith: { a, _ in a })
            }
            guard let rule = rulesBySource[dir]?[key.rule] else { continue }
            work.append(Work(key: key, rule: rule, context: state.context, allowed: rule.allowedIDs.union([EngineRules.unreadable.id])))
        }
        let results = Mutex([(EvalKey, EvalRecord)]())
        let snapshot = tree
        let index = subjectsByProject
        let facts = self.facts
        let parsed = self.parsed
        let root = self.root
        let keepInputs = incremental
        let items = work
        // Batches keep lock traffic low; several batches per core keep both cores busy to the end.
        let batchSize = max(1, min(256, items.count / (ProcessInfo.processInfo.activeProcessorCount * 8)))
        let batches = (items.count + batchSize - 1) / batchSize
        DispatchQueue.concurrentPerform(iterations: batches) { b in
            var local: [(EvalKey, EvalRecord)] = []
            local.reserveCapacity(batchSize)
            for i in (b * batchSize)..<min(items.count, (b + 1) * batchSize) {
                let w = items[i]
                let ctx = EvaluationContext(
                    root: root, subject: w.key.subject, project: w.context, ruleSource: w.rule.source, tree: snapshot,
                    facts: facts, parsed: parsed, subjectIndex: index, allowedIDs: w.allowed)
                w.rule.rule.evaluate(w.key.subject, in: ctx)
                var inputs: Set<EvaluationInput> = []
                if keepInputs {
                    inputs = ctx.inputs
                    inputs.insert(.file(w.key.subject.path))
                }
                local.append((w.key, EvalRecord(inputs: inputs, diagnostics: ctx.diagnostics)))
            }
            results.withLock { $0 += local }
        }
        for (key, record) in results.withLock({ $0 }) {
            drop(key)
            records[key] = record
            for input in record.inputs { dependents[input, default: []].insert(key) }
        }
        evaluationsRun += items.count
        return items.count
    }

    static func difference(_ before: [Diagnostic], _ after: [Diagnostic]) -> DiagnosticDelta {
        var counts: [Diagnostic: Int] = [:]
        for d in before { counts[d, default: 0] += 1 }
        var delta = DiagnosticDelta()
        for d in after {
            if let c = counts[d], c > 0 { counts[d] = c - 1 } else { delta.added.append(d) }
        }
        for (d, c) in counts where c > 0 { delta.removed += Array(repeating: d, count: c) }
        delta.removed.sort(by: Diagnostic.stableOrder)
        return delta
    }
}

/// Project-model reads against the tree, recorded as inputs of the project's context.
final class TreeAccess: ProjectFileAccess {
    let tree: ResourceTree
    var inputs: Set<EvaluationInput> = []
    init(tree: ResourceTree) { self.tree = tree }

    func read(_ path: String) -> Result<[UInt8], SystemError> {
        inputs.insert(.file(path))
        guard tree.files[path] != nil else { return .failure(SystemError(call: "open", path: tree.absolute(path), errno: 2)) }
        do { return .success(try FileSystem.readFile(tree.absolute(path))) } catch { return .failure(error) }
    }

    func list(_ directory: String) -> Result<[DirectoryEntry], SystemError> {
        inputs.insert(.listing(directory))
        inputs.insert(.file(directory))
        return tree.entries(of: directory)
    }
}
