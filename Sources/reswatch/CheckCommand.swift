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
    @Flag(name: .customLong("no-color"), help: "Never colour the text output.") var noColor = false
    @Argument(help: "Directories (or files) to check.") var paths: [String] = ["."]

    func validate() throws {
        for dir in rules where !RuleLocations.isDirectory(dir) {
            throw ValidationError("--rules \(dir): not a directory")
        }
    }

    func run() throws {
        let ruleSet = RuleLocations.loadRules(extra: rules)
        var engines: [Engine] = []
        var only: [String: Set<String>] = [:]
        for path in paths {
            let absolute = FileSystem.absolutePath(path)
            let status: FileStatus
            do { status = try FileSystem.statusFollowingLinks(absolute) } catch {
                FileHandle.standardError.write(Data("reswatch: cannot check \(path): \(error.reason)\n".utf8))
                throw ExitCode(2)
            }
            var root = absolute
            if status.kind != .directory {
                root = Self.root(forFile: absolute)
                only[root, default: []].insert(String(absolute.dropFirst(root.count + 1)))
            } else if !FileSystem.isReadable(absolute) {
                FileHandle.standardError.write(Data("reswatch: cannot check \(path): Permission denied\n".utf8))
                throw ExitCode(2)
            }
            let engine = Engine(root: root, rules: ruleSet, registry: BuiltinKinds.registry, incremental: false)
            engine.fullScan()
            engines.append(engine)
        }
        let report = CheckReport(engines: engines, minimumSeverity: minSeverity, onlyPaths: only)
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
        if report.summary.errors > 0 { throw ExitCode(1) }
    }

    /// A file is checked within its project (the nearest ancestor with .reswatch.yaml or an
    /// .xcodeproj), else within its directory's parent, so asset-set context is seen.
    static func root(forFile file: String) -> String {
        var dir = (file as NSString).deletingLastPathComponent
        while dir != "/" && !dir.isEmpty {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            if entries.contains(".reswatch.yaml") || entries.contains(where: { $0.hasSuffix(".xcodeproj") }) { return dir }
            dir = (dir as NSString).deletingLastPathComponent
        }
        let parent = (file as NSString).deletingLastPathComponent
        let grandparent = (parent as NSString).deletingLastPathComponent
        return grandparent.isEmpty ? "/" : grandparent
    }
}
