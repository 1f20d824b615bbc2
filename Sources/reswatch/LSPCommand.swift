import ArgumentParser
import Daemon
import Flows
import Foundation
import LanguageServer
import Logging
import ReswatchProtocol
import RuleEngine
import RuleKinds
import ServiceLifecycle
import SocketServer
import SystemCalls

/// `reswatch lsp`: a Language Server over stdio for editors (docs/editors.md).
struct LSPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp", abstract: "Runs a Language Server (LSP 3.17) over stdin/stdout for editors.",
        discussion: """
            On initialize it connects to the daemon (starting one, as 'reswatch daemon', when none answers at \
            the socket, unless --no-start-daemon) and watches the workspace folders; with --no-daemon it \
            runs the engine and its own watcher inside this process instead. It publishes the findings \
            of every file in the workspace, open or not, and offers quick fixes where the repair is \
            mechanical. Editor setup: docs/editors.md.
            """)
    @OptionGroup var client: ClientOptions
    @Flag(name: .customLong("no-start-daemon"), help: "Do not start a daemon when none answers: say so and check nothing.")
    var noStartDaemon = false
    @Flag(name: .customLong("no-daemon"), help: "Run the engine and a watcher in this process (nothing shared with other editors).")
    var noDaemon = false
    @Option(
        name: .customLong("daemon-idle-exit"),
        help: ArgumentHelp(
            "A daemon this starts exits after this many seconds with no client (0: never; default 600). Its log: $XDG_STATE_HOME/reswatch/daemon.log.",
            valueName: "seconds"))
    var daemonIdleExit = 600

    func validate() throws {
        guard (0...604_800).contains(daemonIdleExit) else { throw ValidationError("--daemon-idle-exit must be 0…604800 seconds") }
    }

    func run() async throws {
        ProcessSignals.unblockTermination()
        let env = ProcessEnvironment.current()
        var socket = client.path
        let defaultSocket = socket
        var start: (@Sendable () throws -> Void)? = nil
        let idleExit = daemonIdleExit
        if !noStartDaemon {
            start = { @Sendable in try DaemonStarter.start(socket: defaultSocket, idleExit: idleExit, environment: env) }
        }
        var privateDirectory: String?
        if noDaemon {
            let dir = try DaemonStarter.privateDirectory()
            privateDirectory = dir
            socket = dir + "/lsp.sock"
            try await InProcessDaemon.start(socket: socket, environment: env)
            start = nil
        }
        defer { if let privateDirectory { try? FileManager.default.removeItem(atPath: privateDirectory) } }

        let transport = try await StdioTransport()
        var logProblem: String?
        var log: ServerLogFile?
        do throws(SystemError) { log = try ServerLogFile(environment: env) } catch {
            logProblem = "reswatch: cannot open the language server's log in \(StateFiles.directory(environment: env)): \(error.reason)"
        }
        let server = LanguageServer(
            options: .init(
                socket: socket, startDaemon: start, rulesURL: env["RESWATCH_RULES_URL"] ?? RuleLinksBase.value,
                version: ReswatchVersion.string, log: log, daemonLog: start == nil ? nil : DaemonStarter.logPath(environment: env)),
            send: { transport.send($0) })
        if let logProblem { await server.warnLater(logProblem) }
        var shutdownSeen = false
        for await event in transport.inbound {
            switch event {
            case .message(let bytes):
                let next = await server.receive(bytes)
                if case .exit(let code) = next {
                    await transport.finish()
                    throw ExitCode(code)
                }
                shutdownSeen = await server.isShuttingDown
            case .framingError(let text):
                StandardError.say("reswatch lsp: \(text); stopping")
                await server.framingError(text)
                await transport.finish()
                throw ExitCode(1)
            case .closed:
                // The editor went away without exit: as LSP says, 1 unless shutdown came first.
                await transport.finish()
                throw ExitCode(shutdownSeen ? 0 : 1)
            }
        }
        throw ExitCode(shutdownSeen ? 0 : 1)
    }
}

/// Where `--rules-url` of the reports points by default: the same for the editor's links.
enum RuleLinksBase {
    static var value: String { DiagnosticMapping().rulesURL }
}

/// Starts `reswatch daemon` for the user when an editor finds none.
enum DaemonStarter {
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// A 0700 folder of our own for a private socket.
    static func privateDirectory() throws -> String {
        do throws(SystemError) { return try FileSystem.makeTemporaryDirectory(named: "reswatch-lsp.") } catch {
            throw StartError(description: "cannot create a private folder in \(FileSystem.temporaryDirectory): \(error.reason)")
        }
    }

    /// Where a daemon started on demand logs: `$XDG_STATE_HOME/reswatch/daemon.log` (else
    /// `~/.local/state/…`), appended to.
    static func logPath(environment env: [String: String]) -> String { StateFiles.directory(environment: env) + "/daemon.log" }

    /// Runs `reswatch daemon --socket SOCKET` detached (it serves the next editor too), logging to
    /// `logPath`, and waits until it answers. It exits after `idleExit` seconds with no client.
    static func start(socket: String, idleExit: Int, environment env: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileSystem.realPath("/proc/self/exe") ?? CommandLine.arguments[0])
        process.arguments = ["daemon", "--socket", socket, "--idle-exit", String(idleExit), "--started-by", "reswatch lsp"]
        // Never the editor's stdin/stdout: they carry the LSP stream.
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do throws(SystemError) {
            let (fd, _) = try StateFiles.openLog("daemon.log", environment: env)
            process.standardError = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        } catch {
            throw StartError(description: "cannot open the daemon's log \(logPath(environment: env)): \(error.reason)")
        }
        do { try process.run() } catch {
            throw StartError(description: "cannot run \(process.executableURL?.path ?? "reswatch"): \(error)")
        }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? ReswatchClient(path: socket)) != nil { return }
            if !process.isRunning { throw StartError(description: "the daemon exited at once (status \(process.terminationStatus))") }
            usleep(50_000)
        }
        throw StartError(description: "the daemon did not answer within 15 s")
    }
}

/// `lsp --no-daemon`: the daemon's core and socket server in this process, on a private socket.
enum InProcessDaemon {
    static func start(socket: String, environment: [String: String]) async throws {
        var configuration = DaemonConfiguration(socketPath: socket, kinds: BuiltinKinds.registry)
        configuration.ruleSources = ShippedModules.sources(environment: environment)
        try RuleLocations.requireRules(configuration.ruleSources.load(registry: BuiltinKinds.registry), sources: configuration.ruleSources)
        do { try SocketServerService.prepare(path: socket) } catch {
            throw DaemonStarter.StartError(description: "\(error)")
        }
        let logger = Logger(label: "reswatch") { ConsoleLogHandler(label: $0, level: .warning) }
        let (core, services) = DaemonCommand.coreServices(
            configuration: configuration, logger: logger, eventLog: nil, notifier: SystemdNotifier(environment: [:]))
        let group = ServiceGroup(services: services, logger: logger)
        await core.setShutdownHandler { await group.triggerGracefulShutdown() }
        Task { try? await group.run() }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? ReswatchClient(path: socket)) != nil { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw DaemonStarter.StartError(description: "the in-process engine did not start listening within 15 s")
    }
}
