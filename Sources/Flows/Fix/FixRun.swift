import Findings
import Repair
import Reporting
import RuleEngine
import RuleKinds
import SystemCalls

/// `reswatch fix` as a library flow: the repair plan of each project (printed, or kept for the
/// html page), carried out with `apply`, or the last run undone. The command only parses its flags
/// into `FixOptions`; the exit status is the outcome's (0 nothing left, 1 findings remain) or 2
/// for a `FlowFailure`.
package enum FixRun {
    package static func run(_ options: FixOptions, output: FlowOutput = .process) throws(FlowFailure) -> Int32 {
        let targets = try targets(options.paths)
        if options.undo {
            for root in Set(targets.map(\.root)).sorted() { try undo(root: root, output: output) }
            return 0
        }
        let ruleSet = try RuleLoading.load(extra: options.extraRules, environment: options.environment, output: output)
        var remaining = 0
        var empty: [String] = []
        var pages: [FixPlanPage.Plan] = []
        for root in Set(targets.map(\.root)).sorted() {
            let outcome = try fix(root: root, targets: targets.filter { $0.root == root }, rules: ruleSet, options, output: output)
            remaining += outcome.remaining
            empty += outcome.empty
            pages.append(outcome.page)
        }
        if options.format == .html {
            let page = FixPlanPage.render(pages, applied: options.apply)
            if let file = options.output {
                do { try FileSystem.writeAtomically(FileSystem.absolutePath(file), Array(page.utf8)) } catch {
                    throw FlowFailure("cannot write the html plan \(FileName.display(file)): \(error.reason)")
                }
            } else {
                output.write(page)
            }
        }
        if !ruleSet.errors.isEmpty {
            for error in ruleSet.errors { output.say("\(error)") }
            throw FlowFailure("\(ruleSet.errors.count) rule module error(s): the findings, and so the repairs, are incomplete")
        }
        if !empty.isEmpty {
            throw FlowFailure("\(empty.joined(separator: ", ")): nothing to check, so nothing was checked or repaired (a wrong path?)")
        }
        if remaining > 0 {
            say(
                "\(remaining) finding(s) at warning or above remain\(options.apply ? "" : " after this plan") (reswatch check lists them)",
                options, output)
            return 1
        }
        return 0
    }

    /// A line for the person: standard output, unless the html page goes there.
    static func say(_ line: String, _ options: FixOptions, _ output: FlowOutput) {
        if options.format == .html && options.output == nil { output.say(line) } else { output.print(line) }
    }

    /// A root as the person sees it: relative to the current folder when inside it.
    package static func shown(_ root: String) -> String {
        let cwd = FileSystem.absolutePath(".")
        if root == cwd { return "." }
        return FileName.display(root.hasPrefix(cwd + "/") ? String(root.dropFirst(cwd.count + 1)) : root)
    }

    /// Each path's project root and the part of it asked about.
    static func targets(_ paths: [String]) throws(FlowFailure) -> [(root: String, scope: String, shown: String)] {
        var targets: [(root: String, scope: String, shown: String)] = []
        for shown in paths {
            let absolute = FileSystem.absolutePath(shown)
            guard let status = try? FileSystem.statusFollowingLinks(absolute) else {
                throw FlowFailure("cannot fix \(FileName.display(shown)): no such file or folder")
            }
            let root = ProjectLocator.root(for: absolute, isDirectory: status.kind == .directory)
            targets.append((root, absolute == root ? "" : String(absolute.dropFirst(root == "/" ? 1 : root.count + 1)), shown))
        }
        return targets
    }

    /// `--undo` of one root: every file of its last run restored, and what could not be, named.
    static func undo(root: String, output: FlowOutput) throws(FlowFailure) {
        let report: FixJournal.UndoReport
        do { report = try FixJournal.undo(root: root) } catch { throw FlowFailure("\(error)") }
        output.print(
            "\(shown(root)): undid \(report.journal)\(report.wasInterrupted ? " (a run that had stopped part-way)" : ""): restored \(report.restored.count) file(s)"
        )
        for path in report.restored { output.print("  restored \(FileName.display(path))") }
        for path in report.removedTemporary {
            output.print("  removed \(FileName.display(path)), the unfinished write of the stopped run")
        }
        for path in report.originalMissing {
            output.print("  could not restore \(FileName.display(path)): its saved original is missing from \(report.journal)")
        }
        for path in report.leftAlone {
            output.print("  left \(FileName.display(path)) as it is: it changed after the fix (its original is in \(report.journal))")
        }
        if !report.originalMissing.isEmpty {
            throw FlowFailure("the undo is incomplete: \(report.originalMissing.count) original(s) are missing; the run stays undoable")
        }
    }

    /// An earlier run that stopped part-way, and which of its changes it made.
    static func describe(_ stopped: FixJournal.Interrupted, root: String) -> String {
        let total = stopped.made.count + stopped.notMade.count + stopped.editedSince.count
        var out = [
            "note: the fix in \(shown(root))/\(stopped.journal) stopped part-way: \(stopped.made.count) of its \(total) change(s) are made; `reswatch fix --undo` restores them"
        ]
        out += stopped.made.map { "  made: \($0)" } + stopped.notMade.map { "  not made: \($0)" }
        out += stopped.editedSince.map { "  edited since: \($0) (left as it is by --undo)" }
        return out.joined(separator: "\n")
    }

    /// One root: its findings, the plan (printed, or kept for the page), carried out with `apply`.
    static func fix(
        root: String, targets: [(root: String, scope: String, shown: String)], rules ruleSet: RuleSet, _ options: FixOptions,
        output: FlowOutput
    ) throws(FlowFailure) -> (remaining: Int, empty: [String], page: FixPlanPage.Plan) {
        if let stopped = FixJournal.interrupted(root: root) { say(describe(stopped, root: root), options, output) }
        let scopes = targets.map(\.scope)
        let inScope = { (d: Diagnostic) in scopes.contains { $0.isEmpty || RelativePath.isWithin(d.path, $0) } }
        let engine = Engine(root: root, rules: ruleSet, registry: BuiltinKinds.registry, incremental: false)
        engine.fullScan()
        var empty: [String] = []
        // A path with nothing reswatch judges must not read as "nothing left to fix".
        for target in targets {
            let coverage = engine.coverage(under: [target.scope])
            guard coverage.isEmpty else { continue }
            empty.append(target.shown)
            output.say(
                "reswatch: nothing to check in \(target.shown): it holds \(coverage.foundInstead) (build folders excluded) but none of what reswatch checks: \(Coverage.lookedFor)"
            )
        }
        let findings = engine.diagnostics.filter(inScope)
        let plan = Repairer.plan(
            root: root, diagnostics: findings, projects: engine.projectContexts, only: options.choices.only,
            options: options.choices.options)
        if options.format == .text { output.print(FixPlanText.render(plan, shownRoot: shown(root), applying: options.apply)) }
        let page = FixPlanText.page(plan, shownRoot: shown(root))
        if options.apply && !plan.isEmpty {
            do {
                let journal = try FixJournal.apply(plan, afterChange: options.afterChange)
                say(
                    "applied \(plan.repairs.count) repair(s); the originals and the journal are in \(journal); `reswatch fix --undo` restores them",
                    options, output)
            } catch { throw FlowFailure(error.description) }
            engine.fullScan()
            return (engine.diagnostics.filter(inScope).count { $0.severity >= .warning }, empty, page)
        }
        let repaired = Set(plan.repairs.map(\.finding) + plan.alsoRepaired)
        return (findings.count { $0.severity >= .warning && !repaired.contains($0) }, empty, page)
    }
}

/// Everything `reswatch fix` is asked: one value the command fills from its flags. The repairs'
/// own choices (`FixChoices`) are those the socket's `fix` reads too.
package struct FixOptions: Sendable {
    /// Project folders to repair, as the person gave them.
    package var paths: [String] = ["."]
    /// Carry the plan out (without it nothing is changed).
    package var apply = false
    /// Restore every file the last `apply` changed.
    package var undo = false
    package var choices = FixChoices()
    package var format: FixFormat = .text
    /// Where the html plan goes (nil: standard output).
    package var output: String?
    package var extraRules: [String] = []
    package var environment: [String: String] = ProcessEnvironment.current()
    /// Called after each change `apply` makes, with its number (the crash-safety tests kill the
    /// process there).
    package var afterChange: @Sendable (Int) -> Void = { _ in }

    package init() {}

    /// Combinations that are wrong whatever the tree holds.
    package func validate() throws(UsageProblem) {
        if apply && undo { throw UsageProblem("--apply and --undo do not go together") }
        if undo && (choices.only != nil || choices.options.singleSize || choices.options.background != nil) {
            throw UsageProblem("--undo restores the whole last run; --only, --single-size and --background do not apply")
        }
        if format == .html && undo { throw UsageProblem("--format html shows a plan; --undo has none") }
        if output != nil && format != .html { throw UsageProblem("--output writes the html plan: give --format html") }
    }
}

/// `fix --format`.
package enum FixFormat: String, CaseIterable, Sendable {
    case text, html
}
