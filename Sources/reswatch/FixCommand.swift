import ArgumentParser
import Flows
import Foundation
import Repair
import SystemCalls

extension FixFormat: ExpressibleByArgument {}

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

    func validate() throws { _ = try options() }

    /// The flags as one value for the flow.
    func options() throws(ValidationError) -> FixOptions {
        var options = FixOptions()
        options.paths = paths
        options.apply = apply
        options.undo = undo
        options.format = format
        options.output = output
        options.extraRules = extraRules.rules
        options.afterChange = Self.faultInjection()
        do throws(UsageProblem) {
            if undo && (only != nil || singleSize || background != nil) {
                throw UsageProblem("--undo restores the whole last run; --only, --single-size and --background do not apply")
            }
            try options.validate()
            do throws(FixChoiceProblem) {
                options.choices = try FixChoices(
                    only: onlyIDs.map { $0.sorted() }, background: background, singleSize: singleSize, prefix: "--")
            } catch { throw UsageProblem(error.message) }
        } catch { throw ValidationError(error.message) }
        return options
    }

    var onlyIDs: Set<String>? {
        only.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }) }
    }

    /// For the crash-safety tests only: RESWATCH_FAULT_KILL_AFTER_CHANGE=N kills this process
    /// (SIGKILL: no clean-up of any kind) once change N of `--apply` is made.
    static func faultInjection() -> @Sendable (Int) -> Void {
        guard let value = ProcessEnvironment.current()["RESWATCH_FAULT_KILL_AFTER_CHANGE"], let n = Int(value) else {
            return { _ in }
        }
        return { if $0 == n { kill(getpid(), SIGKILL) } }
    }

    func run() throws {
        let status: Int32
        do { status = try FixRun.run(try options()) } catch let failure as FlowFailure { throw Self.fail(failure) }
        if status != 0 { throw ExitCode(status) }
    }
}
