import ArgumentParser
import Findings
import Flows
import Foundation
import Reporting
import ReswatchProtocol
import RuleEngine
import SystemCalls

/// `--socket` for every client command.
struct ClientOptions: ParsableArguments {
    @Option(
        help: "The daemon's socket (default: $RESWATCH_SOCKET, $XDG_RUNTIME_DIR/reswatch/reswatch.sock, /tmp/reswatch-$UID/reswatch.sock).")
    var socket: String?

    var path: String { socket.map(FileSystem.absolutePath) ?? SocketLocation.defaultPath(environment: ProcessEnvironment.current()) }

    /// Connects and calls; prints a clear message and exits 2 when no daemon answers.
    func call<R: ReswatchRequest>(_ request: R.Type, _ params: R.Params, timeoutMilliseconds: Int = 60_000) throws -> R.Response {
        do {
            let client = try ReswatchClient(path: path)
            return try client.call(request, params, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            StandardError.say("reswatch: \(error)")
            throw ExitCode(2)
        }
    }
}

func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self))
}

struct DiagnosticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnostics",
        abstract: "Prints the daemon's current diagnostics (exit 1 when any is an error, 2 when they are incomplete).",
        discussion: """
            Incomplete: a root in the scope is still being scanned, or a rule module did not load (said on \
            standard error, as is a degraded root or one with nothing to check).
            """)
    @OptionGroup var client: ClientOptions
    @Option(help: "Output format: text or json.") var format: OutputFormat = .text
    @Option(name: .customLong("min-severity"), help: "info, warning or error.") var minSeverity: Severity = .info
    @Argument(help: "Only diagnostics under this path (absolute, or relative to the current directory).") var path: String?

    func run() throws {
        let params = DiagnosticsParams(path: path.map(FileSystem.absolutePath), minimumSeverity: minSeverity)
        // Status first: a root ready now is complete in the reply that follows.
        let coverage = DiagnosticsCoverage(status: try client.call(StatusRequest.self, NoParams()), path: params.path)
        let snapshot = try client.call(DiagnosticsRequest.self, params)
        switch format {
        case .json: printJSON(snapshot)
        case .text:
            let report = TextReport(color: isatty(STDOUT_FILENO) == 1 && ProcessEnvironment.current()["NO_COLOR"] == nil)
            for d in snapshot.diagnostics { print(report.line(d)) }
            print("\(snapshot.diagnostics.count) diagnostics (generation \(snapshot.generation))")
        }
        for note in coverage.notes { StandardError.say("reswatch: note: \(note)") }
        if !coverage.incomplete.isEmpty {
            for gap in coverage.incomplete { StandardError.say("reswatch: results are incomplete: \(gap)") }
            throw ExitCode(2)
        }
        if snapshot.diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }
}

struct SubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe", abstract: "Prints the snapshot, then every notification, as JSON lines until interrupted.")
    @OptionGroup var client: ClientOptions
    @Option(name: .customLong("min-severity"), help: "info, warning or error.") var minSeverity: Severity = .info

    func run() throws {
        do {
            let connection = try ReswatchClient(path: client.path)
            let snapshot = try connection.call(SubscribeRequest.method, .object(["min_severity": .string(minSeverity.rawValue)]))
            emit(.object(["jsonrpc": .string("2.0"), "method": .string("snapshot"), "params": snapshot]))
            for n in connection.drainNotifications() { emit(n) }
            while true {
                if let message = try connection.readMessage(timeoutMilliseconds: 60_000) { emit(message) }
            }
        } catch ClientError.closed {
            StandardError.say("reswatch: the daemon closed the connection")
        } catch {
            StandardError.say("reswatch: \(error)")
            throw ExitCode(2)
        }
    }

    func emit(_ value: JSONValue) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Unbuffered: a pipe reader (jq, a status bar) sees each notification at once.
        var line = (try? encoder.encode(value)) ?? Data()
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }
}

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Waits until every change made before now has been processed.")
    @OptionGroup var client: ClientOptions
    @Option(name: .customLong("timeout-ms"), help: "Give up after this many milliseconds (default 10000).") var timeoutMs = 10_000

    func run() throws {
        let result = try client.call(SyncRequest.self, SyncParams(timeoutMilliseconds: timeoutMs), timeoutMilliseconds: timeoutMs + 5000)
        print("generation \(result.generation)")
    }
}

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Adds, removes or lists watched roots.", subcommands: [Add.self, Remove.self, List.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Watches a directory (returns after its initial scan).")
        @OptionGroup var client: ClientOptions
        @Argument var path: String
        func run() throws { printRoots(try client.call(WatchAddRequest.self, PathParams(path: FileSystem.absolutePath(path)))) }
    }
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stops watching a directory.")
        @OptionGroup var client: ClientOptions
        @Argument var path: String
        func run() throws { printRoots(try client.call(WatchRemoveRequest.self, PathParams(path: FileSystem.absolutePath(path)))) }
    }
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists watched directories.")
        @OptionGroup var client: ClientOptions
        func run() throws { printRoots(try client.call(WatchListRequest.self, NoParams())) }
    }
}

/// One root a line, escaped (FileName.display) so a newline in a root's path cannot make two;
/// `--format json` of `status` gives the paths as they are.
func printRoots(_ result: WatchListResult) {
    for r in result.roots { print(FileName.display(r)) }
}

struct RecheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "recheck", abstract: "Re-reads a root (or all) from disk.")
    @OptionGroup var client: ClientOptions
    @Argument var root: String?
    func run() throws {
        print("generation \(try client.call(RecheckRequest.self, RootParams(root: root.map(FileSystem.absolutePath))).generation)")
    }
}

struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics", abstract: "Prints the daemon's Prometheus metrics (text exposition format) once.")
    @OptionGroup var client: ClientOptions
    func run() throws { print(try client.call(MetricsRequest.self, NoParams()).text, terminator: "") }
}

struct ShutdownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "shutdown", abstract: "Stops the daemon gracefully.")
    @OptionGroup var client: ClientOptions
    func run() throws {
        _ = try client.call(ShutdownRequest.self, NoParams())
        print("reswatch daemon is shutting down")
    }
}
