import ArgumentParser
import Daemon
import Foundation
import LanguageServer
import Logging
import ReswatchProtocol
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

    func run() async throws {
        ProcessSignals.unblockTermination()
        let env = ProcessInfo.processInfo.environment
        var socket = client.path
        let defaultSocket = socket
        var start: (@Sendable () throws -> Void)? = nil
        if !noStartDaemon { start = { @Sendable in try DaemonStarter.start(socket: defaultSocket) } }
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
        let server = LanguageServer(
            options: .init(
                socket: socket, startDaemon: start, rulesURL: env["RESWATCH_RULES_URL"] ?? RuleLinksBase.value,
                version: ReswatchVersion.string),
            send: { transport.send($0) })
        var shutdownSeen = false
        for await event in transport.inbound {
            switch event {
            case .message(let bytes):
                let next = await server.receive(bytes)
                if case .exit(let code) = next {
                    await transport.flush()
                    throw ExitCode(code)
                }
                shutdownSeen = await server.isShuttingDown
            case .framingError(let text):
                FileHandle.standardError.write(Data("reswatch lsp: \(text); stopping\n".utf8))
                await server.framingError(text)
                await transport.flush()
                throw ExitCode(1)
            case .closed:
                // The editor went away without exit: as LSP says, 1 unless shutdown came first.
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

    /// Runs `reswatch daemon --socket SOCKET` detached (it outlives the editor and serves the
    /// next one), and waits until it answers.
    static func start(socket: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileSystem.realPath("/proc/self/exe") ?? CommandLine.arguments[0])
        process.arguments = ["daemon", "--socket", socket]
        // Never the editor's stdin/stdout: they carry the LSP stream.
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
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
