import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// A project's resolved state: its context, the rules in force for it (base plus its own
/// `.reswatch/rules`), what was read to resolve it, and the problems found in its configuration.
struct ProjectState: Sendable {
    /// The primary app's context (or the project's, without an Xcode project).
    var context: ProjectContext { contexts[0] }
    /// One context per iOS app of the project, the primary one first.
    var contexts: [ProjectContext]
    /// What resolving it read (an exact-size array: the set the resolver gathered them in sat in
    /// room for twice as many, for each project the daemon keeps).
    var inputs: [EvaluationInput]
    var rules: RuleSet
    /// config.invalid / project.* findings: reported by the engine itself, so a configuration can
    /// never silence the report of its own problems.
    var diagnostics: [Diagnostic]
}

extension ProjectState {
    /// The index in `contexts` of the context a path is judged with: the app whose target owns it
    /// most specifically (its resources, its Info.plist's folder), else the primary app's.
    func contextIndex(for path: String) -> Int {
        guard contexts.count > 1 else { return 0 }
        // Asked for each subject of the project: no array built per context, no context copied.
        func depth(of folder: String) -> Int {
            guard RelativePath.isWithin(path, folder) else { return -1 }
            return folder.isEmpty ? 0 : folder.utf8.count + 1
        }
        var best = (0, -1)
        for i in contexts.indices {
            var deepest = contexts[i].infoPlist.map { depth(of: RelativePath.parent($0)) } ?? -1
            for folder in contexts[i].ownedPaths { deepest = max(deepest, depth(of: folder)) }
            if deepest > best.1 { best = (i, deepest) }
        }
        return best.0
    }
}

/// Resolves one project of a tree: context (ContextResolver), own rule modules, and problems.
struct ProjectResolver {
    let root: String
    let tree: ResourceTree
    let baseRules: RuleSet
    let registry: KindRegistry
    /// Info.plist subjects of the project (candidates for the app's Info.plist).
    let infoPlists: [String]
    /// Asset catalogs of the project (one that no target bundles is said, once).
    var catalogs: [String] = []
    /// Images of the project (those no target bundles are said, once), asked for only when the
    /// project lists its targets' resources: building 100,000 paths for every project resolved
    /// cost the initial scan its lead over watchman's crawl.
    var images: () -> [String] = { [] }
    /// Run exec rules that the project's own modules declare (`--allow-project-exec`).
    var allowProjectExec = false
    /// Settings laid over every project's `.reswatch.yaml` (`check --config`, `--ignore`).
    var overlay: ProjectConfig?
    /// The tree's project folders, when this folder is none and lies outside them all: nothing
    /// in it ships in a product of theirs (issue 58: a React Native root's `assets/`, fastlane's
    /// artwork), so it is said and not judged.
    var projectsElsewhere: [String] = []

    func resolve(_ dir: String) -> ProjectState {
        let recorder = TreeAccess(tree: tree)
        recorder.inputs.insert(.subjects(.infoPlist, project: dir))
        recorder.inputs.insert(.subjects(.catalog, project: dir))
        var contexts = ContextResolver.resolveAll(
            projectDirectory: dir, files: recorder, infoPlistCandidates: infoPlists, overlay: overlay)
        if !projectsElsewhere.isEmpty, !contexts[0].isMarked, contexts[0].infoPlist == nil, contexts[0].noAppReason == nil {
            let shown = projectsElsewhere.prefix(3).joined(separator: ", ") + (projectsElsewhere.count > 3 ? " …" : "")
            contexts[0].noAppReason = "outside every project of the tree (\(shown))"
            // Shown on a file of the folder (its first by name, breadth first outside the
            // projects), so that editors can show it.
            let file = firstFile(under: dir, recorder: recorder)
            contexts[0].problems.append(
                ContextProblem(
                    .leftOut, path: file ?? dir, line: nil,
                    message:
                        "the files outside every project of the tree (\(shown)) are not judged as an app's: no target ships them; a .reswatch.yaml in \(dir.isEmpty ? "the root" : dir) judges them"
                ))
        }
        let context = contexts[0]
        var rules = baseRules
        let moduleDir = RelativePath.join(dir, ".reswatch/rules")
        if case .success(let entries) = recorder.list(moduleDir) {
            var files: [ModuleFile] = []
            for e in entries where !e.isDirectory && (e.name.hasSuffix(".yaml") || e.name.hasSuffix(".yml")) {
                let path = RelativePath.join(moduleDir, e.name)
                switch recorder.read(path) {
                case .success(let bytes):
                    files.append(ModuleFile(path: tree.absolute(path), text: .success(String(decoding: bytes, as: UTF8.self))))
                case .failure(let err):
                    files.append(
                        ModuleFile(
                            path: tree.absolute(path),
                            text: .failure(ModuleError(file: tree.absolute(path), line: nil, message: "cannot read: \(err.reason)"))))
                }
            }
            let allowed = allowProjectExec
            let own = RuleModuleLoader.load(files: files, registry: registry) { _ in
                allowed ? nil : "the checked project's .reswatch/rules"
            }
            rules = rules.overlaid(with: own)
        }
        var problems = context.problems
        for other in contexts.dropFirst() { problems += other.problems.filter { !problems.contains($0) } }
        problems += unbundledCatalogs(contexts)
        if contexts[0].resourcesKnown {
            // Only then do the images' comings and goings change what the project says.
            recorder.inputs.insert(.subjects(.image, project: dir))
            problems += unbundledImages(contexts)
        }
        problems += unknownRuleIds(context, rules: rules)
        problems += everyRuleOff(context, rules: rules)
        if !context.ignore.isEmpty { problems += emptyGlobs(context, recorder: recorder) }
        let anchor = DiagnosticAnchor(
            isFile: {
                recorder.inputs.insert(.file($0)); return recorder.tree.isFile($0)
            },
            list: { (try? recorder.list($0).get()) ?? [] }, read: { try? recorder.read($0).get() })
        let diagnostics = problems.map { problem in
            let (info, severity) = EngineRules.info(for: problem.kind)
            let at = anchor.anchor(
                .init(path: problem.path, line: problem.line, related: []), projectDirectory: dir, message: problem.message)
            return Diagnostic(
                rule: info.id, severity: severity, root: root, project: dir, path: at.path, line: at.line, column: at.column,
                message: at.hint.map { "\(problem.message); \($0)" } ?? problem.message, fix: info.fix, related: at.related,
                relatedLocations: at.relatedLocations)
        }
        // The problems are the project's findings now; each context kept them (a message of some
        // 270 bytes for each project without an Info.plist), and no rule reads them.
        for i in contexts.indices { contexts[i].problems = [] }
        return ProjectState(contexts: contexts, inputs: Array(recorder.inputs), rules: rules, diagnostics: diagnostics)
    }

    /// The first file (by name, breadth first, a few hundred entries at most) under `dir` and
    /// outside the tree's projects.
    func firstFile(under dir: String, recorder: TreeAccess) -> String? {
        var queue = [dir]
        var budget = 512
        while !queue.isEmpty, budget > 0 {
            let folder = queue.removeFirst()
            let entries = ((try? recorder.list(folder).get()) ?? []).sorted { $0.name < $1.name }
            budget -= entries.count
            if let file = entries.first(where: { !$0.isDirectory }) { return RelativePath.join(folder, file.name) }
            for e in entries where e.isDirectory {
                let path = RelativePath.join(folder, e.name)
                // Not into a project's folder; into a folder that holds one (its other files are outside).
                if !projectsElsewhere.contains(where: { RelativePath.isWithin(path, $0) }) { queue.append(path) }
            }
        }
        return nil
    }

    /// Catalogs that no target of the project bundles: nothing in them is judged (the engine
    /// leaves them out), and that is said once for each.
    func unbundledCatalogs(_ contexts: [ProjectContext]) -> [ContextProblem] {
        guard contexts[0].resourcesKnown else { return [] }
        return catalogs.sorted().filter { c in contexts.allSatisfy { $0.unbundledCatalog(containing: c) != nil } }.map { catalog in
            ContextProblem(
                .leftOut, path: RelativePath.join(catalog, "Contents.json"), line: nil,
                message:
                    "\(catalog) is in no target's Copy Bundle Resources phase or synchronized folder: no product ships it, so its sets are not judged"
            )
        }
    }

    /// Images outside the catalogs that no target bundles: not judged (the engine leaves them
    /// out), said once for the project with the first few.
    func unbundledImages(_ contexts: [ProjectContext]) -> [ContextProblem] {
        guard contexts[0].resourcesKnown else { return [] }
        let left = images().filter { p in contexts.allSatisfy { $0.isUnbundledImage(p) } }.sorted()
        guard let first = left.first else { return [] }
        let shown = left.prefix(4).joined(separator: ", ") + (left.count > 4 ? " and \(left.count - 4) more" : "")
        let what = left.count == 1 ? "an image" : "\(left.count) images"
        return [
            ContextProblem(
                .leftOut, path: first, line: nil,
                message:
                    "\(what) outside the asset catalogs in no target's Copy Bundle Resources phase or synchronized folder: no product ships them, so they are not judged: \(shown)"
            )
        ]
    }

    /// Ids in `rules.disable` / `rules.severity` that no rule in force reports.
    func unknownRuleIds(_ context: ProjectContext, rules: RuleSet) -> [ContextProblem] {
        let known = Set(rules.allRuleInfos.map(\.id)).union(EngineRules.all.map(\.id))
        let named = context.disabledRules.union(context.severityOverrides.keys)
        return named.subtracting(known).sorted().map { id in
            let close = known.filter { EditDistance.isClose(id, $0) }.sorted()
            let hint = close.isEmpty ? "" : " (did you mean \(close.prefix(3).joined(separator: ", "))?)"
            return ContextProblem(
                .configIneffective, path: RelativePath.join(context.directory, ".reswatch.yaml"), line: context.ruleIdLines[id],
                message: "no rule has the id '\(Quoted.text(id))'\(hint); the setting does nothing")
        }
    }

    /// Every rule turned off (`rules.disable`, `severity: off`, `check --ignore`): nothing in the
    /// project would be checked, and a clean result would say "no problems". Said instead.
    func everyRuleOff(_ context: ProjectContext, rules: RuleSet) -> [ContextProblem] {
        let ids = Set(rules.allRuleInfos.map(\.id))
        let off = context.disabledRules.union(context.severityOverrides.filter { $0.value == .off }.keys)
        guard !ids.isEmpty, ids.isSubset(of: off) else { return [] }
        return [
            ContextProblem(
                .configIneffective, path: RelativePath.join(context.directory, ".reswatch.yaml"),
                line: ids.compactMap { context.ruleIdLines[$0] }.min(),
                message:
                    "every rule is turned off (rules.disable, rules.severity: off or check --ignore): nothing in this project is checked")
        ]
    }

    /// `ignore` globs that match no file or folder of the project (a typo hides nothing, and says so).
    func emptyGlobs(_ context: ProjectContext, recorder: TreeAccess) -> [ContextProblem] {
        var unmatched = Set(context.ignore)
        var pending = [context.directory]
        while let dir = pending.popLast(), !unmatched.isEmpty {
            guard case .success(let entries) = recorder.list(dir) else { continue }
            for e in entries {
                let path = RelativePath.join(dir, e.name)
                for glob in unmatched where GlobMatcher.isIgnored(path, projectDirectory: context.directory, patterns: [glob]) {
                    unmatched.remove(glob)
                }
                if e.isDirectory { pending.append(path) }
            }
        }
        return context.ignore.filter(unmatched.contains).map { glob in
            ContextProblem(
                .configIneffective, path: RelativePath.join(context.directory, ".reswatch.yaml"), line: context.ignoreLines[glob],
                message: "ignore: '\(glob)' matches no file or folder of the project")
        }
    }
}
