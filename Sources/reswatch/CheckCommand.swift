import ArgumentParser
import Findings
import Flows
import Foundation
import Reporting
import SystemCalls

/// `--format` of the commands that print one thing (rules, status, diagnostics).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

extension Severity: ExpressibleByArgument {}

extension FailOn: ExpressibleByArgument {}

/// `reswatch check`: its flags parsed into `CheckOptions`, the run is `CheckRun`'s (Flows).
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
        do { return try OutputPlan.pair(arguments: after, formats: formats, files: outputs) } catch {
            throw ValidationError(error.message)
        }
    }

    /// The flags as one value for the flow.
    func options() throws -> CheckOptions {
        var options = CheckOptions()
        options.paths = paths
        options.outputs = try plan().outputs
        options.basePath = basePath
        options.assets = assets
        options.config = config
        options.ignore = ignore
        options.extraRules = extraRules.rules
        options.minSeverity = minSeverity
        options.failOn = failOn ?? (strict ? .warning : .error)
        options.baseline = baseline
        options.writeBaseline = writeBaseline
        options.changedSince = changedSince
        options.showFixes = fixes
        options.allowProjectExec = allowProjectExec
        options.allFiles = allFiles
        options.color = !noColor && isatty(STDOUT_FILENO) == 1 && options.environment["NO_COLOR"] == nil
        options.allowEmpty = allowEmpty
        options.processEndsAfter = true
        return options
    }

    func run() throws {
        let outcome: CheckRun.Outcome
        do { outcome = try CheckRun.run(try options()) } catch let failure as FlowFailure { throw Self.fail(failure) }
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }
}
