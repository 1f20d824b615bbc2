import ArgumentParser
import Findings
import Foundation
import Reporting
import RuleEngine
import RuleKinds
import RuleKit
import SystemCalls

/// `--format` of the commands that print one thing (rules, status, diagnostics).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

extension Severity: ExpressibleByArgument {}

struct CheckCommand: ParsableCommand, FailingCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Checks resource folders once and exits (for CI).",
        discussion: """
            Formats: \(Reporters.all.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")). \
            Paths are relative to the repository root (the git top level of the first checked path, else the current \
            directory; --base-path overrides). \
            Exit status: 0 nothing that fails the run (--fail-on, default error), 1 findings that do, 2 could not run as \
            asked (bad arguments, unreadable path, a path that holds nothing reswatch checks unless --allow-empty, a rule \
            module that fails to load, a project configuration that does not parse, an unreadable baseline, a report that \
            cannot be written). See docs/ci.md.
            """)

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("Output format (repeatable): \(Reporters.names.joined(separator: ", ")).", valueName: "format"),
        completion: .list(Reporters.names))
    var formats: [String] = []
    @Option(
        name: .customLong("output"),
        help: ArgumentHelp("Write the --format given just before to FILE (repeatable; default: standard output).", valueName: "file"),
        completion: .file())
    var outputs: [String] = []
    @Option(name: .customLong("base-path"), help: ArgumentHelp("Report paths relative to DIR.", valueName: "dir"), completion: .directory)
    var basePath: String?
    @Option(
        name: .customLong("assets"),
        help: ArgumentHelp("With --format markdown: write each icon set's contact sheet (PNG) to DIR and show it.", valueName: "dir"),
        completion: .directory)
    var assets: String?
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Lay this file (.reswatch.yaml's keys) over every checked project's own configuration: its settings win, its disabled rules add up.",
            valueName: "file"),
        completion: .file(extensions: ["yaml", "yml"]))
    var config: String?
    @Option(
        name: .customLong("ignore"),
        help: ArgumentHelp(
            "Do not run the rule with this id (repeatable), as rules.disable would. (Paths are left out with ignore: globs in .reswatch.yaml.)",
            valueName: "rule"),
        completion: RuleIDCompletion.kind)
    var ignore: [String] = []
    @OptionGroup var extraRules: ExtraRules
    @Option(name: .customLong("min-severity"), help: "Hide diagnostics below this severity: info, warning, error.") var minSeverity:
        Severity = .info
    @Option(name: .customLong("fail-on"), help: "Lowest severity that fails the run (exit 1): error, warning, info, never.")
    var failOn: FailOn?
    @Flag(help: "Warnings fail the run too (--fail-on warning).") var strict = false
    @Option(
        name: .customLong("baseline"), help: ArgumentHelp("Leave out the findings listed in FILE.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var baseline: String?
    @Option(
        name: .customLong("write-baseline"),
        help: ArgumentHelp("Record the current findings in FILE as the baseline (accepted: the run exits 0).", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var writeBaseline: String?
    @Option(
        name: .customLong("changed-since"),
        help: ArgumentHelp("Check only the projects with files changed since this git revision.", valueName: "rev"))
    var changedSince: String?
    @Flag(help: "Print how to fix each problem.") var fixes = false
    @Flag(
        name: .customLong("allow-project-exec"),
        help:
            "Run exec rules that the checked tree's .reswatch/rules (or module files other users own) declare. Off: they are reported, not run."
    )
    var allowProjectExec = false
    @Flag(
        name: .customLong("all-files"),
        help:
            "Judge vendored folders too (Pods, node_modules, Carthage, .docset) and what is inside prebuilt .framework/.xcframework bundles, as if they were the app's; by default they are left out and said once per kind (project.left-out)."
    )
    var allFiles = false
    @Flag(name: .customLong("no-color"), help: "Never colour the text output.") var noColor = false
    @Flag(
        name: .customLong("allow-empty"),
        help: "A path that holds nothing reswatch checks is said, but does not fail the run (exit 2 without it).")
    var allowEmpty = false
    @Argument(help: "Directories (or files) to check.", completion: .file()) var paths: [String] = ["."]

    func validate() throws {
        if strict, let failOn, failOn != .warning {
            throw ValidationError("--strict means --fail-on warning; not both with --fail-on \(failOn)")
        }
        _ = try plan()
    }

    /// Which `--output` file each `--format` goes to. The pairing depends on the order the options
    /// were given in (`--format sarif --output a --format junit --output b`), which
    /// ArgumentParser's parsed arrays do not keep: so the raw arguments after `check` are read
    /// again for their order only (the values themselves are ArgumentParser's).
    func plan() throws(ValidationError) -> OutputPlan {
        let all = Array(RawArguments.all().dropFirst())
        let after = all.firstIndex(of: "check").map { Array(all[($0 + 1)...]) } ?? all
        return try OutputPlan.pair(arguments: after, formats: formats, files: outputs)
    }

    /// `--assets DIR`, made if missing: only with a markdown report (its contact sheets go there).
    func assetsFolder(_ plan: OutputPlan) throws -> String? {
        try assets.map { folder in
            guard plan.outputs.contains(where: { $0.format == MarkdownReporter.name }) else {
                throw Self.fail("--assets \(FileName.display(folder)) is for the contact sheets of --format markdown: give that format")
            }
            do { try FileManager.default.createDirectory(atPath: FileSystem.absolutePath(folder), withIntermediateDirectories: true) } catch
            {
                throw Self.fail("cannot make the --assets folder \(FileName.display(folder)): \(error.localizedDescription)")
            }
            return folder
        }
    }

    func run() throws {
        let plan = try plan()
        // Where the check goes is settled first, so that its trees are walked while the rule
        // modules load (CheckWalks). Not with --changed-since, which asks git and says what it
        // found; and a problem with the paths is said only after the modules' own, as it was.
        let early = changedSince == nil ? Result { () throws(PathProblem) in try locate(paths.map(FileSystem.absolutePath)) } : nil
        let excludes = allFiles ? ResourceTree.defaultExcludes.subtracting(ResourceTree.vendored) : ResourceTree.defaultExcludes
        let walks = (try? early?.get()).map { CheckWalks(roots: $0.roots, excludes: excludes) }
        let ruleSet = try RuleLocations.loadRules(extra: extraRules.rules, allowUntrustedExec: allowProjectExec)
        let overlay = try CheckOverlay.make(config: config, ignore: ignore, rules: ruleSet)
        let cwd = FileSystem.absolutePath(".")
        let base =
            basePath.map(FileSystem.absolutePath)
            ?? ReportPaths.repositoryRoot(containing: FileSystem.absolutePath(paths[0]), fallback: cwd)
        let reportPaths = ReportPaths(base: base)
        let (roots, scopes, shownPaths) = try located(early)
        var engines: [Engine] = []
        for root in roots {
            let engine = Engine(
                root: root, rules: ruleSet, registry: BuiltinKinds.registry, excludes: excludes, incremental: false,
                allowProjectExec: allowProjectExec, configOverlay: overlay?.config, judgesVendored: allFiles)
            engine.fullScan(walked: walks?.tree(root))
            engines.append(engine)
            // The process ends after the report: its engines' memory goes back with it, at once,
            // rather than object by object as they are freed (a few ms for 10,000 icons).
            _ = Unmanaged.passRetained(engine)
        }
        var report = CheckReport(engines: engines, minimumSeverity: minSeverity, scopes: scopes)
        let ruleInfos = (ruleSet.allRuleInfos + EngineRules.all + engines.flatMap { $0.projectRuleInfos })
        try overlay?.verify(known: Set(ruleInfos.map(\.id)))
        let environment = ProcessEnvironment.current()
        let rulesURL = environment["RESWATCH_RULES_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? RuleLinks.defaultBase
        let tty = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil
        let assetsFolder = try assetsFolder(plan)
        func context(_ report: CheckReport, suppressed: Int) -> ReportContext {
            ReportContext(
                report: report, paths: reportPaths, rules: ruleInfos, toolVersion: ReswatchVersion.string, suppressed: suppressed,
                color: tty && !noColor, showFixes: fixes, rulesURL: rulesURL, assetsDirectory: assetsFolder)
        }
        if let file = writeBaseline {
            let text = Baseline(context(report, suppressed: 0)).json()
            do { try FileSystem.writeAtomically(FileSystem.absolutePath(file), Array(text.utf8)) } catch {
                throw Self.fail("cannot write the baseline \(FileName.display(file)): \(error.reason)")
            }
            StandardError.say(
                "reswatch: wrote \(report.diagnostics.count) finding(s) to the baseline \(FileName.display(file)); they are accepted, so this run exits 0 (check with --baseline \(FileName.display(file)) to see only new findings)"
            )
        }
        var suppressed = 0
        if let file = baseline {
            let loaded: Baseline
            do { loaded = try Baseline.load(FileSystem.absolutePath(file)) } catch { throw Self.fail(error.description) }
            (report, suppressed) = loaded.apply(to: report, paths: reportPaths)
        }
        let rendered = context(report, suppressed: suppressed)
        try write(plan.outputs, rendered)
        if suppressed > 0, plan.outputs.allSatisfy({ $0.format != "text" || $0.file != nil }) {
            StandardError.say("reswatch: \(suppressed) finding(s) left out: listed in the baseline \(baseline!)")
        }
        let empty = nothingToCheck(shownPaths, engines)
        if !report.ruleErrors.isEmpty {
            throw Self.fail("\(report.ruleErrors.count) rule module error(s); results are incomplete")
        }
        if report.unappliedConfigurations > 0 {
            throw Self.fail(
                "\(report.unappliedConfigurations) problem(s) in project configuration (config.invalid); results are not what the configuration asks for"
            )
        }
        if !empty.isEmpty && !allowEmpty {
            throw Self.fail(
                "\(empty.joined(separator: ", ")): nothing to check, so nothing was checked (a wrong path?); --allow-empty accepts it")
        }
        // Writing a baseline records the findings as accepted: that run is not a failure.
        if writeBaseline == nil, (failOn ?? (strict ? .warning : .error)).fails(report.summary) { throw ExitCode(1) }
    }

    /// The paths to check: the arguments, or with --changed-since the projects under them that
    /// changed since the revision.
    func changedArguments() throws -> [String] {
        let arguments = paths.map(FileSystem.absolutePath)
        guard let revision = changedSince else { return arguments }
        let changed: [String]
        do { changed = try ChangedProjects.projects(since: revision, repository: arguments[0], scopes: arguments) } catch {
            throw Self.fail(error.description)
        }
        if changed.isEmpty {
            StandardError.say("reswatch: no project under \(paths.joined(separator: ", ")) changed since \(revision): nothing to check")
        }
        return changed
    }

    /// The paths located before the rules loaded (`early`), or now (with --changed-since); a
    /// problem with them said here, after the rules' own.
    func located(_ early: Result<Located, PathProblem>?) throws -> Located {
        let result: Result<Located, PathProblem>
        if let early {
            result = early
        } else {
            let arguments = try changedArguments()
            result = Result { () throws(PathProblem) in try locate(arguments) }
        }
        do { return try result.get() } catch { throw Self.fail(error.message) }
    }

    /// Where a check goes: its roots, the scopes asked about in each, and each path as given.
    typealias Located = (
        roots: [String], scopes: [String: [DiagnosticScope]], shown: [(root: String, scope: String, shown: String)]
    )

    /// A path that cannot be checked: said by the caller, in its turn (`run`).
    struct PathProblem: Error {
        let message: String
    }

    /// Each argument is judged within its enclosing project; arguments of one project share it.
    func locate(_ arguments: [String]) throws(PathProblem) -> Located {
        var roots: [String] = []
        var scopes: [String: [DiagnosticScope]] = [:]
        var shownPaths: [(root: String, scope: String, shown: String)] = []
        for argument in arguments {
            let shown = paths.first { FileSystem.absolutePath($0) == argument } ?? argument
            let status: FileStatus
            do { status = try FileSystem.statusFollowingLinks(argument) } catch {
                throw PathProblem(message: "cannot check \(FileName.display(shown)): \(error.reason)")
            }
            let isDirectory = status.kind == .directory
            // A link to a folder, named on the command line, is checked where it leads: the walk
            // does not follow folder links, so judged from its parent it would be only a link.
            var absolute = argument
            if isDirectory, (try? FileSystem.status(argument))?.kind == .symlink, let real = FileSystem.realPath(argument) {
                absolute = real
            }
            if isDirectory && !FileSystem.isReadable(absolute) {
                throw PathProblem(message: "cannot check \(FileName.display(shown)): Permission denied")
            }
            let root = ProjectLocator.root(for: absolute, isDirectory: isDirectory)
            if scopes[root] == nil { roots.append(root) }
            let relative = absolute == root ? "" : String(absolute.dropFirst(root == "/" ? 1 : root.count + 1))
            scopes[root, default: []].append(DiagnosticScope(relativePath: relative))
            shownPaths.append((root, DiagnosticScope(relativePath: relative).path, shown))
        }
        return (roots, scopes, shownPaths)
    }

    /// Each report to its file, or to stdout.
    func write(_ outputs: [OutputPlan.Output], _ rendered: ReportContext) throws {
        for output in outputs {
            let text = Reporters.named(output.format)!.render(rendered)
            if let file = output.file {
                do { try FileSystem.writeAtomically(FileSystem.absolutePath(file), Array((text + "\n").utf8)) } catch {
                    throw Self.fail("cannot write the \(output.format) report \(FileName.display(file)): \(error.reason)")
                }
            } else if !text.isEmpty {
                print(text)
            }
        }
    }

    /// A path with nothing reswatch judges (an empty folder, Swift sources, a mistyped path in
    /// CI) must not read as a clean result: each is said (the caller exits 2 unless --allow-empty).
    func nothingToCheck(_ shownPaths: [(root: String, scope: String, shown: String)], _ engines: [Engine]) -> [String] {
        var empty: [String] = []
        for (root, scope, shown) in shownPaths {
            guard let engine = engines.first(where: { $0.root == root }) else { continue }
            let coverage = engine.coverage(under: [scope])
            guard coverage.isEmpty else { continue }
            empty.append(shown)
            StandardError.say(
                "reswatch: \(allowEmpty ? "note: " : "")nothing to check in \(FileName.display(shown)): it holds \(coverage.foundInstead) (build folders excluded) but none of what reswatch checks: \(Coverage.lookedFor)"
            )
        }
        return empty
    }
}
