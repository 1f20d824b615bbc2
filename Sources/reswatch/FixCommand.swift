import ArgumentParser
import Findings
import Foundation
import ProjectModel
import Repair
import Reporting
import RuleEngine
import RuleKinds
import SystemCalls

/// `reswatch fix`: the repairs of what `check` finds, as a plan (each file it would write, create
/// or rename, with a diff), carried out only with `--apply`, and undone with `--undo`.
struct FixCommand: ParsableCommand, FailingCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Repairs what reswatch finds: prints the plan; --apply carries it out; --undo restores the last run.",
        discussion: """
            Repairs are made only where they are unambiguous; the plan says why it leaves each other \
            finding. --apply first saves every file it changes under ROOT/.reswatch/fix/<time>/ with a \
            journal, then replaces each file atomically; --undo restores every byte of the last run \
            (a file edited since is left as it is, and named). A plist is edited as text, never \
            re-serialised; a binary or OpenStep plist is never rewritten. Exit status: 0 nothing is \
            left to fix (no error or warning remains after the repairs), 1 findings remain, 2 usage \
            errors, a fix that could not run (nothing was changed then), a path with nothing to check, \
            or rule module errors. See docs/fix.md.
            """)

    @Flag(help: "Carry out the plan (without it, nothing is changed).") var apply = false
    @Flag(help: "Restore every file the last --apply under the path's project changed.") var undo = false
    @Option(
        name: .customLong("only"), help: ArgumentHelp("Repair only these rule ids (comma-separated).", valueName: "rule,…"),
        completion: RuleIDCompletion.kind)
    var only: String?
    @Option(
        name: .customLong("background"),
        help: ArgumentHelp("Lay a transparent App Store or watch icon over this colour (#rrggbb, white, black).", valueName: "color"))
    var background: String?
    @Flag(
        name: .customLong("single-size"),
        help: "Make a legacy iOS app icon set with missing or wrongly sized icons a single-size 1024 set (iOS 12+ deployment target).")
    var singleSize = false
    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("text (default), or html: one page with each image change before and after.", valueName: "format"))
    var format: FixFormat = .text
    @Option(name: .customLong("output"), help: ArgumentHelp("Write the html plan to FILE.", valueName: "file"), completion: .file())
    var output: String?
    @OptionGroup var extraRules: ExtraRules
    @Argument(help: "Project folders to repair (default: the current folder).", completion: .directory) var paths: [String] = ["."]

    func validate() throws {
        if apply && undo { throw ValidationError("--apply and --undo do not go together") }
        if undo && (only != nil || singleSize || background != nil) {
            throw ValidationError("--undo restores the whole last run; --only, --single-size and --background do not apply")
        }
        if format == .html && undo { throw ValidationError("--format html shows a plan; --undo has none") }
        if output != nil && format != .html { throw ValidationError("--output writes the html plan: give --format html") }
        if let background, RepairOptions.color(background) == nil {
            throw ValidationError("--background \(background): not a colour (#rrggbb, white or black)")
        }
        for id in onlyIDs ?? [] where !Repairer.repairableRules.contains(id) {
            let close = Repairer.repairableRules.filter { EditDistance.isClose(id, $0) }.sorted()
            throw ValidationError(
                "--only \(id): no repair for that rule" + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)")
                    + "; repairable: \(Repairer.repairableRules.sorted().joined(separator: ", "))")
        }
    }

    var onlyIDs: Set<String>? {
        only.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }) }
    }

    /// A root as the person sees it: relative to the current folder when inside it.
    static func shown(_ root: String) -> String {
        let cwd = FileSystem.absolutePath(".")
        if root == cwd { return "." }
        return FileName.display(root.hasPrefix(cwd + "/") ? String(root.dropFirst(cwd.count + 1)) : root)
    }

    /// Each path's project root and the part of it asked about.
    func targets() throws -> [(root: String, scope: String, shown: String)] {
        try paths.map { shown in
            let absolute = FileSystem.absolutePath(shown)
            guard let status = try? FileSystem.statusFollowingLinks(absolute) else {
                throw Self.fail("cannot fix \(FileName.display(shown)): no such file or folder")
            }
            let isDirectory = status.kind == .directory
            let root = ProjectLocator.root(for: absolute, isDirectory: isDirectory)
            let scope = absolute == root ? "" : String(absolute.dropFirst(root == "/" ? 1 : root.count + 1))
            return (root, scope, shown)
        }
    }

    /// An earlier run that stopped part-way, and which of its changes it made.
    static func describe(_ stopped: FixJournal.Interrupted, root: String) -> String {
        let total = stopped.made.count + stopped.notMade.count + stopped.editedSince.count
        var out = [
            "note: the fix in \(Self.shown(root))/\(stopped.journal) stopped part-way: \(stopped.made.count) of its \(total) change(s) are made; `reswatch fix --undo` restores them"
        ]
        out += stopped.made.map { "  made: \($0)" } + stopped.notMade.map { "  not made: \($0)" }
        out += stopped.editedSince.map { "  edited since: \($0) (left as it is by --undo)" }
        return out.joined(separator: "\n")
    }

    /// For the crash-safety tests only: RESWATCH_FAULT_KILL_AFTER_CHANGE=N kills this process
    /// (SIGKILL: no clean-up of any kind) once change N of `--apply` is made.
    static func faultInjection() -> (Int) -> Void {
        guard let value = ProcessEnvironment.current()["RESWATCH_FAULT_KILL_AFTER_CHANGE"], let n = Int(value) else {
            return { _ in }
        }
        return { if $0 == n { kill(getpid(), SIGKILL) } }
    }

    func run() throws {
        let targets = try targets()
        if undo {
            for root in Set(targets.map(\.root)).sorted() {
                do {
                    let report = try FixJournal.undo(root: root)
                    print(
                        "\(Self.shown(root)): undid \(report.journal)\(report.wasInterrupted ? " (a run that had stopped part-way)" : ""): restored \(report.restored.count) file(s)"
                    )
                    for path in report.restored { print("  restored \(FileName.display(path))") }
                    for path in report.removedTemporary {
                        print("  removed \(FileName.display(path)), the unfinished write of the stopped run")
                    }
                    for path in report.originalMissing {
                        print("  could not restore \(FileName.display(path)): its saved original is missing from \(report.journal)")
                    }
                    for path in report.leftAlone {
                        print("  left \(FileName.display(path)) as it is: it changed after the fix (its original is in \(report.journal))")
                    }
                    if !report.originalMissing.isEmpty {
                        throw Self.fail(
                            "the undo is incomplete: \(report.originalMissing.count) original(s) are missing; the run stays undoable")
                    }
                } catch let exit as ExitCode {
                    throw exit
                } catch { throw Self.fail("\(error)") }
            }
            return
        }
        let ruleSet = try RuleLocations.loadRules(extra: extraRules.rules)
        var remaining = 0
        var empty: [String] = []
        var pages: [FixPlanPage.Plan] = []
        for root in Set(targets.map(\.root)).sorted() {
            let outcome = try fix(root: root, targets: targets.filter { $0.root == root }, rules: ruleSet)
            remaining += outcome.remaining
            empty += outcome.empty
            pages.append(outcome.page)
        }
        if format == .html {
            let page = FixPlanPage.render(pages, applied: apply)
            if let output {
                do { try FileSystem.writeAtomically(FileSystem.absolutePath(output), Array(page.utf8)) } catch {
                    throw Self.fail("cannot write the html plan \(FileName.display(output)): \(error.reason)")
                }
            } else {
                print(page, terminator: "")
            }
        }
        if !ruleSet.errors.isEmpty {
            for error in ruleSet.errors { StandardError.say("\(error)") }
            throw Self.fail("\(ruleSet.errors.count) rule module error(s): the findings, and so the repairs, are incomplete")
        }
        if !empty.isEmpty {
            throw Self.fail("\(empty.joined(separator: ", ")): nothing to check, so nothing was checked or repaired (a wrong path?)")
        }
        if remaining > 0 {
            say("\(remaining) finding(s) at warning or above remain\(apply ? "" : " after this plan") (reswatch check lists them)")
            throw ExitCode(1)
        }
    }

    /// A line for the person: standard output, unless the html page goes there.
    func say(_ line: String) {
        if format == .html && output == nil { StandardError.say(line) } else { print(line) }
    }

    /// One root: its findings, the plan (printed, or kept for the page), carried out with --apply.
    func fix(
        root: String, targets: [(root: String, scope: String, shown: String)], rules ruleSet: RuleSet
    ) throws -> (remaining: Int, empty: [String], page: FixPlanPage.Plan) {
        if let stopped = FixJournal.interrupted(root: root) { say(Self.describe(stopped, root: root)) }
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
            StandardError.say(
                "reswatch: nothing to check in \(target.shown): it holds \(coverage.foundInstead) (build folders excluded) but none of what reswatch checks: \(Coverage.lookedFor)"
            )
        }
        let findings = engine.diagnostics.filter(inScope)
        let options = RepairOptions(background: background.flatMap(RepairOptions.color), singleSize: singleSize)
        let plan = Repairer.plan(root: root, diagnostics: findings, projects: engine.projectContexts, only: onlyIDs, options: options)
        if format == .text { print(FixPlanText.render(plan, shownRoot: Self.shown(root), applying: apply)) }
        let page = FixPlanText.page(plan, shownRoot: Self.shown(root))
        if apply && !plan.isEmpty {
            do {
                let journal = try FixJournal.apply(plan, afterChange: Self.faultInjection())
                say(
                    "applied \(plan.repairs.count) repair(s); the originals and the journal are in \(journal); `reswatch fix --undo` restores them"
                )
            } catch { throw Self.fail(error.description) }
            engine.fullScan()
            return (engine.diagnostics.filter(inScope).count { $0.severity >= .warning }, empty, page)
        }
        let repaired = Set(plan.repairs.map(\.finding) + plan.alsoRepaired)
        return (findings.count { $0.severity >= .warning && !repaired.contains($0) }, empty, page)
    }
}

/// `fix --format`.
enum FixFormat: String, ExpressibleByArgument, CaseIterable {
    case text, html
}

/// The plan as a person reads it: each repair with the files it changes (a diff for text), then
/// what is left and why.
enum FixPlanText {
    static func render(_ plan: RepairPlan, shownRoot: String, applying: Bool) -> String {
        var out: [String] = []
        let count = plan.repairs.count
        out.append(
            "\(shownRoot): \(count) repair\(count == 1 ? "" : "s")"
                + (applying ? "" : count == 0 ? "" : " (a plan: nothing is changed; --apply carries it out)"))
        for (n, repair) in plan.repairs.enumerated() {
            out.append("")
            out.append("\(n + 1). \(repair.title) [\(repair.finding.rule)]")
            for change in repair.changes {
                switch change {
                case .rename(let from, let to): out.append("   rename \(FileName.display(from)) → \(FileName.display(to))")
                case .remove(let path, let original):
                    out.append("   remove \(FileName.display(path)) (\(describe(original)); kept in the journal, --undo puts it back)")
                case .write(let path, let original, let new):
                    out.append("   \(original == nil ? "create" : "edit") \(FileName.display(path))")
                    if isText(new) && (original.map(isText) ?? true) {
                        out += UnifiedDiff.lines(old: original ?? [], new: new, path: FileName.display(path)).map { "   " + $0 }
                    } else {
                        out.append("   " + describe(new) + (original.map { " (was \(describe($0)))" } ?? ""))
                    }
                }
            }
        }
        if !plan.left.isEmpty {
            out.append("")
            out.append("Left as they are (\(plan.left.count)):")
            for left in plan.left {
                let place = left.finding.path + (left.finding.line.map { ":\($0)" } ?? "")
                out.append("  \(place) [\(left.finding.rule)]: \(left.reason)")
            }
        }
        return out.joined(separator: "\n")
    }

    /// The plan as the html page shows it.
    static func page(_ plan: RepairPlan, shownRoot: String) -> FixPlanPage.Plan {
        let repairs = plan.repairs.map { repair in
            FixPlanPage.Repair(
                title: repair.title, rule: repair.finding.rule,
                changes: repair.changes.map { change -> FixPlanPage.Change in
                    switch change {
                    case .rename(let from, let to):
                        return FixPlanPage.Change(
                            path: FileName.display(from), action: "renamed to \(FileName.display(to))", before: nil, after: nil, diff: [])
                    case .remove(let path, let original):
                        return FixPlanPage.Change(path: FileName.display(path), action: "removed", before: original, after: nil, diff: [])
                    case .write(let path, let original, let new):
                        let diff =
                            isText(new) && (original.map(isText) ?? true)
                            ? UnifiedDiff.lines(old: original ?? [], new: new, path: FileName.display(path)) : []
                        return FixPlanPage.Change(
                            path: FileName.display(path), action: original == nil ? "created" : "edited", before: original, after: new,
                            diff: diff)
                    }
                })
        }
        let left = plan.left.map { ($0.finding.path + ($0.finding.line.map { ":\($0)" } ?? ""), $0.finding.rule, $0.reason) }
        return FixPlanPage.Plan(root: shownRoot, repairs: repairs, left: left)
    }

    /// Text a diff can show: no NUL in the first 8 KiB, not a PNG.
    static func isText(_ bytes: [UInt8]) -> Bool { !bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && !bytes.prefix(8192).contains(0) }

    /// "PNG 120x120 RGB, 2,315 bytes".
    static func describe(_ bytes: [UInt8]) -> String {
        guard bytes.count > 25, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return "\(bytes.count) bytes" }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        let colour = [0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"][Int(bytes[25])] ?? "colour type \(bytes[25])"
        return "PNG \(width)x\(height) \(bytes[24])-bit \(colour), \(bytes.count) bytes"
    }
}
