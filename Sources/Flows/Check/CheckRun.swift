import Findings
import Foundation
import Reporting
import RuleEngine
import RuleKinds
import RuleKit
import SystemCalls

/// `reswatch check` as a library flow: locate the projects, load the rules, judge each tree, write
/// the reports, and say what fails the run. The command only parses its flags into `CheckOptions`
/// and turns the outcome into an exit status; tests and embedders call `run` in-process.
package enum CheckRun {
    /// What a check found: the report as written (after the baseline), and the exit status it
    /// earns (0: nothing fails the run; 1: findings that do). A run that cannot check as asked
    /// throws `FlowFailure` instead (exit status 2).
    package struct Outcome: Sendable {
        package let report: CheckReport
        /// Findings left out because the baseline lists them.
        package let suppressed: Int
        package let status: Int32
    }

    package static func run(_ options: CheckOptions, output: FlowOutput = .process) throws(FlowFailure) -> Outcome {
        // Where the check goes is settled first, so that its trees are walked while the rule
        // modules load (CheckWalks). Not with --changed-since, which asks git and says what it
        // found; and a problem with the paths is said only after the modules' own, as it was.
        let early =
            options.changedSince == nil
            ? Result { () throws(FlowFailure) in try CheckPaths.locate(options.paths.map(FileSystem.absolutePath), given: options.paths) }
            : nil
        let excludes = options.allFiles ? ResourceTree.defaultExcludes.subtracting(ResourceTree.vendored) : ResourceTree.defaultExcludes
        let walks = (try? early?.get()).map { CheckWalks(roots: $0.roots, excludes: excludes) }
        let ruleSet = try RuleLoading.load(
            extra: options.extraRules, allowUntrustedExec: options.allowProjectExec, environment: options.environment, output: output)
        let overlay = try CheckOverlay.make(config: options.config, ignore: options.ignore, rules: ruleSet)
        let cwd = FileSystem.absolutePath(".")
        let base =
            options.basePath.map(FileSystem.absolutePath)
            ?? ReportPaths.repositoryRoot(containing: FileSystem.absolutePath(options.paths.first ?? "."), fallback: cwd)
        let reportPaths = ReportPaths(base: base)
        let located: CheckPaths
        if let early {
            located = try early.get()
        } else {
            located = try CheckPaths.locate(try CheckPaths.changed(options, output: output), given: options.paths)
        }
        var engines: [Engine] = []
        for root in located.roots {
            let engine = Engine(
                root: root, rules: ruleSet, registry: BuiltinKinds.registry, excludes: excludes, incremental: false,
                allowProjectExec: options.allowProjectExec, configOverlay: overlay?.config, judgesVendored: options.allFiles)
            engine.fullScan(walked: walks?.tree(root))
            engines.append(engine)
            if options.processEndsAfter { _ = Unmanaged.passRetained(engine) }
        }
        var report = CheckReport(engines: engines, minimumSeverity: options.minSeverity, scopes: located.scopes)
        let ruleInfos = (ruleSet.allRuleInfos + EngineRules.all + engines.flatMap { $0.projectRuleInfos })
        try overlay?.verify(known: Set(ruleInfos.map(\.id)))
        let rulesURL = options.environment["RESWATCH_RULES_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? RuleLinks.defaultBase
        let assetsFolder = try assetsFolder(options)
        func context(_ report: CheckReport, suppressed: Int) -> ReportContext {
            ReportContext(
                report: report, paths: reportPaths, rules: ruleInfos, toolVersion: ReswatchVersion.string, suppressed: suppressed,
                color: options.color, showFixes: options.showFixes, rulesURL: rulesURL, assetsDirectory: assetsFolder)
        }
        if let file = options.writeBaseline {
            let text = Baseline(context(report, suppressed: 0)).json()
            do { try FileSystem.writeAtomically(FileSystem.absolutePath(file), Array(text.utf8)) } catch {
                throw FlowFailure("cannot write the baseline \(FileName.display(file)): \(error.reason)")
            }
            output.say(
                "reswatch: wrote \(report.diagnostics.count) finding(s) to the baseline \(FileName.display(file)); they are accepted, so this run exits 0 (check with --baseline \(FileName.display(file)) to see only new findings)"
            )
        }
        var suppressed = 0
        if let file = options.baseline {
            let loaded: Baseline
            do { loaded = try Baseline.load(FileSystem.absolutePath(file)) } catch { throw FlowFailure(error.description) }
            (report, suppressed) = loaded.apply(to: report, paths: reportPaths)
        }
        try write(options.outputs, context(report, suppressed: suppressed), output: output)
        if suppressed > 0, let file = options.baseline, options.outputs.allSatisfy({ $0.format != "text" || $0.file != nil }) {
            output.say("reswatch: \(suppressed) finding(s) left out: listed in the baseline \(file)")
        }
        let empty = nothingToCheck(located, engines, allowEmpty: options.allowEmpty, output: output)
        if !report.ruleErrors.isEmpty {
            throw FlowFailure("\(report.ruleErrors.count) rule module error(s); results are incomplete")
        }
        if report.unappliedConfigurations > 0 {
            throw FlowFailure(
                "\(report.unappliedConfigurations) problem(s) in project configuration (config.invalid); results are not what the configuration asks for"
            )
        }
        if !empty.isEmpty && !options.allowEmpty {
            throw FlowFailure(
                "\(empty.joined(separator: ", ")): nothing to check, so nothing was checked (a wrong path?); --allow-empty accepts it")
        }
        // Writing a baseline records the findings as accepted: that run is not a failure.
        let fails = options.writeBaseline == nil && options.failOn.fails(report.summary)
        return Outcome(report: report, suppressed: suppressed, status: fails ? 1 : 0)
    }

    /// `--assets DIR`, made if missing: only with a markdown report (its contact sheets go there).
    static func assetsFolder(_ options: CheckOptions) throws(FlowFailure) -> String? {
        guard let folder = options.assets else { return nil }
        guard options.outputs.contains(where: { $0.format == MarkdownReporter.name }) else {
            throw FlowFailure("--assets \(FileName.display(folder)) is for the contact sheets of --format markdown: give that format")
        }
        do { try FileManager.default.createDirectory(atPath: FileSystem.absolutePath(folder), withIntermediateDirectories: true) } catch {
            throw FlowFailure("cannot make the --assets folder \(FileName.display(folder)): \(error.localizedDescription)")
        }
        return folder
    }

    /// Each report to its file, or to standard output.
    static func write(_ outputs: [OutputPlan.Output], _ rendered: ReportContext, output: FlowOutput) throws(FlowFailure) {
        for planned in outputs {
            guard let reporter = Reporters.named(planned.format) else {
                throw FlowFailure("--format \(planned.format): unknown format; one of \(Reporters.names.joined(separator: ", "))")
            }
            let text = reporter.render(rendered)
            if let file = planned.file {
                do { try FileSystem.writeAtomically(FileSystem.absolutePath(file), Array((text + "\n").utf8)) } catch {
                    throw FlowFailure("cannot write the \(planned.format) report \(FileName.display(file)): \(error.reason)")
                }
            } else if !text.isEmpty {
                output.print(text)
            }
        }
    }

    /// A path with nothing reswatch judges (an empty folder, Swift sources, a mistyped path in
    /// CI) must not read as a clean result: each is said (the run fails unless `allowEmpty`).
    static func nothingToCheck(_ located: CheckPaths, _ engines: [Engine], allowEmpty: Bool, output: FlowOutput) -> [String] {
        var empty: [String] = []
        for (root, scope, shown) in located.shown {
            guard let engine = engines.first(where: { $0.root == root }) else { continue }
            let coverage = engine.coverage(under: [scope])
            guard coverage.isEmpty else { continue }
            empty.append(shown)
            output.say(
                "reswatch: \(allowEmpty ? "note: " : "")nothing to check in \(FileName.display(shown)): it holds \(coverage.foundInstead) (build folders excluded) but none of what reswatch checks: \(Coverage.lookedFor)"
            )
        }
        return empty
    }
}

/// Everything `reswatch check` is asked: one value the command fills from its flags and an
/// embedder or a test fills in code. A new flag is a field here and an `@Option` in the command.
package struct CheckOptions: Sendable {
    /// Directories (or files) to check, as the person gave them.
    package var paths: [String] = ["."]
    /// Each report format and where it goes (nil: standard output, at most one).
    package var outputs: [OutputPlan.Output] = [OutputPlan.Output(format: "text", file: nil)]
    /// Report paths relative to this folder (default: the git top level of the first path).
    package var basePath: String?
    /// With a markdown report: the folder for its contact sheets.
    package var assets: String?
    /// A `.reswatch.yaml` laid over every checked project's own.
    package var config: String?
    /// Rule ids not to run.
    package var ignore: [String] = []
    /// Extra rule module directories, loaded last.
    package var extraRules: [String] = []
    package var minSeverity: Severity = .info
    package var failOn: FailOn = .error
    package var baseline: String?
    package var writeBaseline: String?
    /// Check only the projects with resources changed since this git revision.
    package var changedSince: String?
    package var showFixes = false
    package var allowProjectExec = false
    /// Judge vendored folders and prebuilt frameworks too.
    package var allFiles = false
    /// Colour the text report.
    package var color = false
    /// A path with nothing to check is said but does not fail the run.
    package var allowEmpty = false
    /// The environment the run reads (rule locations, RESWATCH_RULES_URL).
    package var environment: [String: String] = ProcessEnvironment.current()
    /// The process ends after this run (the command): its engines are left for the exit to free
    /// at once rather than object by object (a few ms for 10,000 icons). Never for an embedder.
    package var processEndsAfter = false

    package init() {}
}
