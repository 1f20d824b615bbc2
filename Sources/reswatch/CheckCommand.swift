import ArgumentParser
import Foundation
import Reporting
import RuleEngine
import RuleKinds

enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

extension Severity: ExpressibleByArgument {}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Checks resource folders once and exits (for CI).",
        discussion:
            "Exit status: 0 no errors, 1 errors found, 2 could not run (unreadable path, bad arguments, a rule module that fails to load).")

    @Option(help: "Output format: text or json.") var format: OutputFormat = .text
    @Option(name: .customLong("rules"), help: "Extra rule module directory (repeatable); loaded last.") var rules: [String] = []
    @Option(name: .customLong("min-severity"), help: "Hide diagnostics below this severity: info, warning, error.") var minSeverity:
        Severity = .info
    @Flag(help: "Print how to fix each problem.") var fixes = false
    @Flag(
        name: .customLong("allow-project-exec"),
        help:
            "Run exec rules that the checked tree's .reswatch/rules (or module files other users own) declare. Off: they are reported, not run."
    )
    var allowProjectExec = false
    @Flag(name: .customLong("no-color"), help: "Never colour the text output.") var noColor = false
    @Argument(help: "Directories (or files) to check.") var paths: [String] = ["."]

    func validate() throws {
        for dir in rules where !RuleLocations.isDirectory(dir) {
            throw ValidationError("--rules \(dir): not a directory")
        }
    }

    func run() throws {
        let ruleSet = try RuleLocations.loadRules(extra: rules, allowUntrustedExec: allowProjectExec)
        // Each argument is judged within its enclosing project; arguments of one project share it.
        var roots: [String] = []
        var scopes: [String: [DiagnosticScope]] = [:]
        for path in paths {
            let absolute = FileSystem.absolutePath(path)
            let status: FileStatus
            do { status = try FileSystem.statusFollowingLinks(absolute) } catch {
                FileHandle.standardError.write(Data("reswatch: cannot check \(path): \(error.reason)\n".utf8))
                throw ExitCode(2)
            }
            let isDirectory = status.kind == .directory
            if isDirectory && !FileSystem.isReadable(absolute) {
                FileHandle.standardError.write(Data("reswatch: cannot check \(path): Permission denied\n".utf8))
                throw ExitCode(2)
            }
            let root = ProjectLocator.root(for: absolute, isDirectory: isDirectory)
            if scopes[root] == nil { roots.append(root) }
            let relative = absolute == root ? "" : String(absolute.dropFirst(root == "/" ? 1 : root.count + 1))
            scopes[root, default: []].append(DiagnosticScope(relativePath: relative))
        }
        var engines: [Engine] = []
        for root in roots {
            let engine = Engine(
                root: root, rules: ruleSet, registry: BuiltinKinds.registry, incremental: false, allowProjectExec: allowProjectExec)
            engine.fullScan()
            engines.append(engine)
        }
        let report = CheckReport(engines: engines, minimumSeverity: minSeverity, scopes: scopes)
        switch format {
        case .json: print(report.json())
        case .text:
            let tty = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            print(TextReport(color: tty && !noColor).render(report, showFixes: fixes))
        }
        if !report.ruleErrors.isEmpty {
            FileHandle.standardError.write(Data("reswatch: \(report.ruleErrors.count) rule module error(s); results are incomplete\n".utf8))
            throw ExitCode(2)
        }
        if report.unappliedConfigurations > 0 {
            FileHandle.standardError.write(
                Data(
                    "reswatch: \(report.unappliedConfigurations) problem(s) in project configuration (config.invalid); results are not what the configuration asks for\n"
                        .utf8))
            throw ExitCode(2)
        }
        if report.summary.errors > 0 { throw ExitCode(1) }
    }
}
