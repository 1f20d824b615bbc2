import Findings
import Foundation
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

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

    /// This delta, then `later`, as one (multisets: a finding one adds and the other removes is
    /// in neither). Applied to the state before this one, it gives the state after `later`.
    public func followed(by later: DiagnosticDelta) -> DiagnosticDelta {
        var counts: [Diagnostic: Int] = [:]
        for d in removed + later.removed { counts[d, default: 0] -= 1 }
        for d in added + later.added { counts[d, default: 0] += 1 }
        var net = DiagnosticDelta(evaluationsRun: evaluationsRun + later.evaluationsRun)
        for (d, n) in counts where n != 0 {
            if n > 0 { net.added += repeatElement(d, count: n) } else { net.removed += repeatElement(d, count: -n) }
        }
        net.added.sort(by: Diagnostic.stableOrder)
        net.removed.sort(by: Diagnostic.stableOrder)
        return net
    }
}

/// The incremental validation engine for one watched root. Each rule evaluation on a subject records
/// what it read; a change re-runs only the evaluations whose inputs changed (plus new subjects), so
/// after any sequence of changes the state equals a cold run. Not thread-safe: one owner drives it;
/// evaluations themselves run in parallel inside a call.
public final class Engine {
    typealias EvalKey = EvaluationStore.Key
    typealias EvalRecord = EvaluationStore.Record

    public let root: String
    public let registry: KindRegistry
    public private(set) var baseRules: RuleSet
    public internal(set) var tree: ResourceTree
    public let facts: FactsCache
    let parsed: ParsedCache
    var projectIndex: ProjectIndex
    /// A full scan has run (see `fullScan`).
    private var hasScanned = false
    /// Each project's resolved state, by directory (most roots have one or a few).
    var projects = SmallMap<String, ProjectState>()
    /// Subject ↔ project, and the moves of the current change.
    var subjects = SubjectIndex()
    private(set) var store = EvaluationStore()
    var scanDiagnostics: [Diagnostic] = []
    /// The tree's `vendoredGeneration` the scan diagnostics say.
    var vendoredSeen = 0
    /// What the current call dropped and stored (the delta comes from these alone).
    var delta = DeltaAccumulator()
    /// Total evaluations run since creation (tests use it to prove incrementality).
    public private(set) var evaluationsRun = 0
    /// Evaluations run and time spent, per rule (by its module entry, `LoadedRule.source`), since
    /// the daemon last took them (`takeRuleMetrics`): the daemon's metrics. Kept only when
    /// `incremental` (a one-shot check does not pay for it).
    public private(set) var ruleStats: [String: RuleStat] = [:]

    /// False for one-shot runs (`check`): no reverse index of inputs is kept, since nothing will change.
    public let incremental: Bool
    /// What is inside prebuilt frameworks is judged as the app's too (`check --all-files`, which
    /// also walks the vendored folders); by default it is left out and said.
    public let judgesVendored: Bool
    /// Exec rules of a project's own `.reswatch/rules` run only when allowed (never by default).
    public let allowProjectExec: Bool
    /// Cores to spread a batch over, read once: `activeProcessorCount` reads the cgroup's CPU
    /// quota files at every call (a tenth of a millisecond per change in the daemon's profile).
    private let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Settings laid over every project's `.reswatch.yaml` (`check --config FILE`, `--ignore`).
    public var configOverlay: ProjectConfig? { overlay?.config }
    /// Held out of line: a `ProjectConfig` is 112 bytes, and the daemon's engines (one a root)
    /// never have one.
    private let overlay: Overlay?
    private final class Overlay: Sendable {
        let config: ProjectConfig
        init(_ config: ProjectConfig) { self.config = config }
    }

    public init(
        root: String, rules: RuleSet, registry: KindRegistry, excludes: Set<String> = ResourceTree.defaultExcludes,
        incremental: Bool = true, cacheCapacity: Int = .max, caches: EngineCaches? = nil, allowProjectExec: Bool = false,
        configOverlay: ProjectConfig? = nil, judgesVendored: Bool = false
    ) {
        self.judgesVendored = judgesVendored
        self.allowProjectExec = allowProjectExec
        self.overlay = configOverlay.map(Overlay.init)
        self.root = root
        self.incremental = incremental
        // Shared with other engines when given (their bound is `caches`'), else this engine's own.
        let caches = caches ?? EngineCaches(capacity: cacheCapacity)
        self.facts = caches.facts
        self.parsed = caches.parsed
        self.baseRules = rules
        self.registry = registry
        self.tree = ResourceTree(root: root, excludes: excludes)
        self.projectIndex = ProjectIndex(tree: tree)
    }

    // MARK: - public API

    /// Scans everything and evaluates every rule on every subject. `walked`: the root already
    /// walked (`ResourceTree.scanAll`) with this engine's excludes, while something else ran
    /// (`check` walks the trees while the rule modules load); any other tree is walked again.
    @discardableResult
    public func fullScan(walked: ResourceTree? = nil) -> DiagnosticDelta {
        beginDelta()
        if let walked, walked.root == tree.root, walked.excludes == tree.excludes {
            tree = walked
        } else {
            tree.scanAll(reportAdded: false)
        }
        // A scan from scratch forgets what an earlier one cached of this root (a first scan has
        // nothing to forget, and the daemon's 1,000 roots would each look through the shared cache).
        if hasScanned { facts.forget(under: root) }
        hasScanned = true
        facts.reserve(tree.fileCount)
        delta.drop(store.removeAll())
        dropAllProjects()
        rebuildSubjects(recordingChanges: false)
        let all = allEvaluations()
        let run = evaluate(all.keys, nodes: all.nodes)
        return endDelta(evaluationsRun: run)
    }

    /// Re-validates after `paths` (absolute, or relative to the root) changed on disk.
    @discardableResult
    public func apply(changedPaths paths: some Sequence<String>) -> DiagnosticDelta {
        var change = ResourceTree.Change()
        for p in paths {
            guard let rel = relative(p) else { continue }
            change.merge(tree.refresh(rel))
        }
        tree.finishBatch()
        return process(change, touched: Set(paths.compactMap { relative($0) }))
    }

    /// Re-lists and re-stats everything (after an inotify overflow); only real differences re-run.
    @discardableResult
    public func rescan() -> DiagnosticDelta {
        // Every directory is re-listed and every file re-stat'ed in place (ids of unchanged paths
        // stay, so the subject index stays valid); only real differences reach the change.
        var change = ResourceTree.Change()
        var level: [String] = [""]
        while !level.isEmpty {
            var next: [String] = []
            for dir in level where tree.isDirectory(dir) {
                change.merge(tree.refresh(dir))
                if case .success(let entries) = tree.entries(of: dir) {
                    for e in entries where e.isDirectory { next.append(RelativePath.join(dir, e.name)) }
                }
            }
            level = next
        }
        tree.finishBatch()
        return process(change, touched: [])
    }

    /// Swaps the rule set (module reload) and re-runs everything that depends on rules.
    @discardableResult
    public func replaceRules(_ rules: RuleSet) -> DiagnosticDelta {
        beginDelta()
        baseRules = rules
        dropAllProjects()
        delta.drop(store.removeAll())
        rebuildSubjects(recordingChanges: false)
        let all = allEvaluations()
        let run = evaluate(all.keys, nodes: all.nodes)
        return endDelta(evaluationsRun: run)
    }

    /// Every current diagnostic, in stable order.
    public var diagnostics: [Diagnostic] {
        (store.diagnostics + projects.values.flatMap(\.diagnostics) + scanDiagnostics).sorted(
            by: Diagnostic.stableOrder)
    }

    /// The resolved context of every project, by directory.
    public var projectContexts: [ProjectContext] {
        projects.sorted { $0.key < $1.key }.flatMap(\.value.contexts)
    }

    /// Module load errors of the base set and of projects' own modules.
    public var ruleErrors: [ModuleError] {
        var seen = Set<ModuleError>()
        return (baseRules.errors + projects.values.flatMap { $0.rules.errors }).filter { seen.insert($0).inserted }
    }

    public var fileCount: Int { tree.fileCount }

    /// Folders a marker makes a project (`.xcodeproj`, `project.yml`, `Project.swift`, `.reswatch.yaml`).
    var projectMarkerDirectories: Set<String> { projectIndex.strong }

    /// What the rules in force in each project (base set and the project's own modules) report.
    var projectRuleSets: [RuleSet] { projects.values.map(\.rules) }
    public var projectRuleInfos: [RuleInfo] { projects.values.flatMap { $0.rules.allRuleInfos } }

    // MARK: - internals

    func relative(_ path: String) -> String? {
        if path.hasPrefix("/") {
            if path == root { return "" }
            guard path.hasPrefix(root + "/") else { return nil }
            return RelativePath.normalize(String(path.dropFirst(root.count + 1)))
        }
        return RelativePath.normalize(path)
    }

    func beginDelta() { delta.begin(scan: scanDiagnostics) }

    func endDelta(evaluationsRun: Int) -> DiagnosticDelta {
        delta.end(scan: scanDiagnostics, evaluationsRun: evaluationsRun)
    }

    func projectState(_ dir: String) -> ProjectState {
        if let s = projects[dir] { return s }
        let s = resolveProject(dir)
        projects[dir] = s
        delta.store(s.diagnostics)
        return s
    }

    func dropAllProjects() {
        for state in projects.values { delta.drop(state.diagnostics) }
        projects.removeAll()
    }

    func resolveProject(_ dir: String) -> ProjectState {
        let infoPlists = subjects.subjects(.infoPlist, inProject: dir, tree: tree).map(\.path)
        // A folder no marker makes a project, in a tree whose projects are elsewhere: what it
        // holds is outside every project (a React Native or Flutter root's assets, fastlane).
        let elsewhere =
            judgesVendored || projectIndex.strong.contains(dir) || projectIndex.weak.contains(dir)
            ? [] : projectIndex.strong.filter { !$0.isEmpty }.sorted()
        return ProjectResolver(
            root: root, tree: tree, baseRules: baseRules, registry: registry, infoPlists: infoPlists,
            catalogs: subjects.subjects(.catalog, inProject: dir, tree: tree).map(\.path),
            images: { self.subjects.subjects(.image, inProject: dir, tree: self.tree).map(\.path) }, allowProjectExec: allowProjectExec,
            overlay: configOverlay, projectsElsewhere: elsewhere
        ).resolve(dir)
    }

    /// Adds the subject a new path is; returns the projects touched.
    func addSubjects(at path: String) -> Set<String> {
        guard let node = tree.node(path), !Self.isModuleDirectory(RelativePath.parent(path)) else { return [] }
        let isDirectory = tree.isDirectory(node: node)
        guard let kind = SubjectClassifier.subjects(for: path, isDirectory: isDirectory).first?.kind else { return [] }
        let project = projectIndex.project(containing: isDirectory ? path : RelativePath.parent(path))
        guard let projectNode = tree.node(project) else { return [] }
        subjects.set(kind, node, project: projectNode, tree: tree, recording: true)
        return [project]
    }

    /// Project directories are projects (and evaluated as such) while they exist and hold subjects
    /// or are marked as projects.
    func updateProjectSubject(_ dir: String, recording: Bool = true) {
        // A directory that is gone had its subjects taken out with its node.
        guard let node = tree.node(dir), tree.isDirectory(node: node) else { return }
        let isSubject = subjects.project(of: .project, node) != nil
        let others = subjects.memberCount(dir, in: tree) - (isSubject ? 1 : 0)
        let wanted = others > 0 || projectIndex.directories.contains(dir)
        if wanted, !isSubject {
            subjects.set(.project, node, project: node, tree: tree, recording: recording)
        } else if !wanted, isSubject {
            subjects.unset(.project, node, tree: tree, recording: recording)
        }
    }

    /// Project rule modules (`.reswatch/…`) are configuration, not resources.
    static func isModuleDirectory(_ dir: String) -> Bool {
        // A byte loop (RelativePath.contains): Foundation's `contains` (NSString's range search)
        // and then the generic `utf8.firstRange(of:)`, which builds a searcher per call (6 % of a
        // scan's instructions, callgrind, 100k files), ran for every folder of a scan.
        dir == ".reswatch" || dir.hasPrefix(".reswatch/") || RelativePath.contains("/.reswatch", in: dir)
    }

    func drop(_ key: EvalKey) { delta.drop(store.drop(key)) }

    /// The rule metrics gathered since the last call, which starts the count again: the daemon
    /// adds each job's to one total for all its roots, so a root holds none between jobs (each
    /// root's own table and histograms, kept for the daemon's life, were 3 MB with 1,000 roots).
    public func takeRuleMetrics() -> [RuleMetric] {
        defer { ruleStats = [:] }
        return ruleMetrics
    }

    /// Plans a batch (each evaluation's rule and project context), runs it on the evaluator and
    /// stores the records that come back. `nodes`, when the caller has them, are the keys'
    /// subjects' nodes (else each is looked up from its path).
    func evaluate(_ keys: [EvalKey], nodes known: [ResourceTree.NodeID]? = nil) -> Int {
        guard !keys.isEmpty else { return 0 }
        // Each evaluation refers to its rule and context by index: a context or an allowed-id set
        // per evaluation cost ~1 KB each (100 MB at 100k files) while the batch was planned.
        var work: [Evaluator.Work] = []
        work.reserveCapacity(keys.count)
        var plans: [Evaluator.Plan] = []
        var planIndex: [String: [String: Int]] = [:]
        var contexts: [ProjectContext] = []
        var contextBase: [String: Int] = [:]
        var leftOutTargets: [Bool] = []  // per context: it leaves paths out (each path is asked)
        // Keys come grouped by project and kind: the last project's state and the last rule's
        // plan answer most of them without hashing the project's path and the rule's id again.
        // The states are held once in `states` and named by index: copying one per key (its
        // contexts, inputs and rules retained and released) was a third of this serial loop.
        var states: [ProjectState] = []
        var last: (dir: String, state: Int, base: Int)?
        var lastPlan: (dir: String, rule: String, plan: Int)?
        // One copy of the tree for the loop: each call on the stored property copied the whole
        // struct (its dozen arrays retained and released) to keep it while the method ran.
        let tree = self.tree
        let bundlesLeftOut = !judgesVendored && tree.hasPrebuiltBundles
        for (i, key) in keys.enumerated() {
            if bundlesLeftOut, Self.isInsidePrebuiltBundle(key.subject) { continue }
            guard let node = known?[i] ?? tree.node(key.subject.path), let dir = subjects.project(of: key.subject.kind, node) else {
                continue
            }
            let stateIndex: Int
            let base: Int
            if let l = last, l.dir == dir {
                (stateIndex, base) = (l.state, l.base)
            } else {
                states.append(projectState(dir))
                stateIndex = states.count - 1
                if contextBase[dir] == nil {
                    contextBase[dir] = contexts.count
                    contexts += states[stateIndex].contexts
                    leftOutTargets += states[stateIndex].contexts.map(\.leavesPathsOut)
                }
                base = contextBase[dir]!
                last = (dir, stateIndex, base)
            }
            // A plan only for the rules this batch runs: a file change runs two or three of a
            // project's rules, and planning all of them was most of a small batch's time.
            let plan: Int
            if let l = lastPlan, l.rule == key.rule, l.dir == dir {
                plan = l.plan
            } else if let known = planIndex[dir]?[key.rule] {
                plan = known
            } else {
                guard let rule = states[stateIndex].rules.rules.first(where: { $0.source == key.rule }) else { continue }
                plan = plans.count
                plans.append(Evaluator.Plan(rule: rule, allowed: rule.allowedIDs.union(Self.alwaysAllowed)))
                planIndex[dir, default: [:]][key.rule] = plan
            }
            lastPlan = (dir, key.rule, plan)
            let context = base + states[stateIndex].contextIndex(for: key.subject.path)
            // What no product reswatch judges ships (a Mac app's files, a test bundle's, a project
            // that builds no iOS app) is not evaluated: the project's project.not-checked says so.
            if leftOutTargets[context], contexts[context].leftOutReason(for: key.subject.path) != nil { continue }
            let group = tree.isDirectory(node: node) ? node : tree.parent(of: node)
            work.append(Evaluator.Work(key: key, plan: plan, context: context, group: group, node: node))
        }
        let evaluator = Evaluator(
            root: root, tree: tree, subjects: subjects, facts: facts, parsed: parsed, keepInputs: incremental, cores: cores)
        let (items, records, timings) = evaluator.run(work, plans: plans, contexts: contexts)
        for (plan, stat) in timings { ruleStats[plans[plan].rule.source, default: RuleStat()].merge(stat) }
        // Every evaluation that ran replaces its old record (if any: none after a full scan); a
        // batch holds each key once, so after this pass none of its keys is stored.
        if !store.isEmpty { for w in items { drop(w.key) } }
        if records.count > 64 { store.reserveCapacity(records.count) }
        for (i, record) in records {
            store.store(items[i].key, record)
            delta.store(record.diagnostics)
        }
        store.compact()
        projects.compact()
        evaluationsRun += items.count
        return items.count
    }

}
