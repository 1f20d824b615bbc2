import ArgumentParser
import Dispatch
import Flows
import Foundation
import SystemCalls

@main
struct Reswatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reswatch",
        abstract: "Validates iOS app resources (icons, launch images, Info.plist, asset catalogs) on Linux.",
        discussion: """
            Rule ids, severities and ITMS codes follow Apple's icon and launch-image tables; see docs/rules.md. \
            Exit status: 0 no errors (check: nothing at or above --fail-on), 1 errors found, 2 could not run as asked \
            (bad arguments, unreadable path, a rule module that fails to load, no daemon answering). CI: docs/ci.md.
            """,
        version: ReswatchVersion.string,
        subcommands: [
            CheckCommand.self, FixCommand.self, DaemonCommand.self, StatusCommand.self, DiagnosticsCommand.self, SubscribeCommand.self,
            SyncCommand.self, WatchCommand.self, RecheckCommand.self, ShutdownCommand.self, RulesCommand.self, LSPCommand.self,
            MetricsCommand.self,
        ]
    )

    /// Like ArgumentParser's main, but usage errors exit 2 (the documented status), not 64, and an
    /// unknown command names the nearest one.
    ///
    /// Synchronous on purpose: the main thread waits for the command's task. An `async` main ends
    /// in `dispatch_main()`, which exits the main thread with `pthread_exit`; that unwinds the
    /// thread's stack through the unwind tables and left 0.7 MB of `.eh_frame_hdr` and `.eh_frame`
    /// resident in the daemon for its whole life (docs/performance.md). Nothing here runs on the
    /// main queue or the main actor.
    static func main() {
        let arguments = Array(RawArguments.all().dropFirst())
        if let message = UnknownCommand.message(for: arguments, root: Reswatch.self) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(2)
        }
        // `check` and `fix` read a whole tree and exit: their heap grows in big steps, not an
        // `mprotect` every few pages. Set before any thread allocates: a thread's heap takes the
        // step when it is made (ProcessMemory.growHeap).
        if let command = arguments.first, ["check", "fix"].contains(command) {
            ProcessMemory.growHeap(inStepsOf: 8 << 20)
            // Their rules are parsed while ArgumentParser reads the command line (RuleLoading.preload).
            RuleLoading.preload()
        }
        let finished = DispatchSemaphore(value: 0)
        // Detached: `main` is the main actor's, and a task inheriting it would wait for the main
        // queue, which this thread, waiting, never drains.
        Task.detached {
            await runCommand(arguments)
            finished.signal()
        }
        finished.wait()
    }

    private static func runCommand(_ arguments: [String]) async {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = StandardError.escaping(arguments, in: fullMessage(for: error))
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
