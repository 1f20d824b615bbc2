import ArgumentParser
import Foundation

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
    static func main() async {
        if let message = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst()), root: Reswatch.self) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

enum ReswatchVersion {
    static let string = "0.2.0"
}
