import ArgumentParser
import Daemon
import Flows
import Foundation
import Logging
import ReswatchProtocol
import RuleEngine
import RuleKinds
import ServiceLifecycle
import SocketServer
import SystemCalls

struct DaemonCommand: AsyncParsableCommand, FailingCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Watches resource folders and serves diagnostics on a Unix socket (JSON-RPC, docs/protocol.md).",
        discussion: """
            Socket: --socket, else $RESWATCH_SOCKET, else $XDG_RUNTIME_DIR/reswatch/reswatch.sock, else
            /tmp/reswatch-$UID/reswatch.sock (directory 0700, socket 0600). SIGTERM/SIGINT stop gracefully,
            SIGHUP reloads rule modules, SIGUSR1 reopens --log-file. Without roots it waits for 'watch/add'.
            """)

    // Each option that a config file key also sets takes its help from the settings table
    // (DaemonSettings), as the config file reader and the example config do.
    @Option(help: ArgumentHelp(DaemonSettings.help("socket")), completion: .file()) var socket: String?
    @Option(name: .customLong("log-file"), help: ArgumentHelp(DaemonSettings.help("log-file")), completion: .file()) var logFile: String?
    @Option(name: .customLong("settle-ms"), help: ArgumentHelp(DaemonSettings.help("settle-ms"))) var settleMs: Int?
    @Option(
        help: ArgumentHelp(
            "A daemon config file (YAML: \(DaemonConfiguration.fileKeys.joined(separator: ", "))); see --example-config."),
        completion: .file(extensions: ["yaml", "yml"]))
    var config: String?
    @Flag(name: .customLong("example-config"), help: "Print a config file with every key, commented, and exit.")
    var exampleConfig = false
    @OptionGroup var extraRules: ExtraRules
    @Option(name: .customLong("socket-group"), help: ArgumentHelp(DaemonSettings.help("socket-group"))) var socketGroup: String?
    @Option(name: .customLong("admin-group"), help: ArgumentHelp(DaemonSettings.help("admin-group"))) var adminGroup: String?
    @Option(name: .customLong("metrics-file"), help: ArgumentHelp(DaemonSettings.help("metrics-file")), completion: .file())
    var metricsFile: String?
    @Option(name: .customLong("idle-exit"), help: ArgumentHelp(DaemonSettings.help("idle-exit"), valueName: "seconds"))
    var idleExit: Int?
    @Option(name: .customLong("started-by"), help: .hidden) var startedBy: String?
    @Flag(help: "Log at debug level.") var verbose = false
    @Flag(name: .customLong("allow-project-exec"), help: ArgumentHelp(DaemonSettings.help("allow-project-exec")))
    var allowProjectExec = false
    @Argument(help: "Directories to watch.", completion: .directory) var roots: [String] = []

    func validate() throws {
        if let s = settleMs, !DaemonSettings.settleRange.contains(s) {
            throw ValidationError("--settle-ms must be \(DaemonSettings.settleRange.lowerBound)…\(DaemonSettings.settleRange.upperBound)")
        }
    }

    func run() async throws {
        if exampleConfig {
            print(DaemonSettings.exampleFile, terminator: "")
            return
        }
        let env = ProcessEnvironment.current()
        var (configuration, policy) = try configured(environment: env)
        try Self.requireWatchableRoots(configuration.roots)
        let level: Logger.Level = verbose ? .debug : .info
        // Under journald: structured entries (a finding's rule, path and root are fields); else stderr.
        let journal = JournalLogHandler.socket(environment: env)
        let logger = Logger(label: "reswatch") { label -> any LogHandler in
            if let journal { return JournalLogHandler(label: label, level: level, socket: journal) }
            return ConsoleLogHandler(label: label, level: level)
        }
        configuration.logFindings = journal != nil
        let activated = try Self.listen(&configuration, &policy, environment: env)
        var eventLog: EventLog?
        if let path = configuration.logFile {
            do { eventLog = try EventLog(path: path) } catch { throw Self.fail("cannot open the log file: \(error)") }
        }
        let notifier = SystemdNotifier()
        let (core, services) = Self.coreServices(
            configuration: configuration, logger: logger, eventLog: eventLog, notifier: notifier, policy: policy, activated: activated)
        let group = ServiceGroup(
            services: services + [
                SignalService(core: core, eventLog: eventLog, logger: logger), SystemdService(core: core, notifier: notifier),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: Logger(label: "reswatch.lifecycle") { ConsoleLogHandler(label: $0, level: .warning) })
        await core.setShutdownHandler { await group.triggerGracefulShutdown() }
        logger.info(
            "reswatch \(ReswatchVersion.string): socket \(configuration.socketPath); query it with 'reswatch status' (RESWATCH_SOCKET=\(configuration.socketPath) when not the default)"
        )
        try await group.run()
    }

    /// The configuration: the config file, then the command line over it, with the rules it loads
    /// (none in force: a daemon that checks nothing must not start and report "no problems").
    func configured(environment env: [String: String]) throws -> (DaemonConfiguration, AccessPolicy) {
        var configuration = DaemonConfiguration(socketPath: SocketLocation.defaultPath(environment: env), kinds: BuiltinKinds.registry)
        if let config {
            do { try configuration.apply(configFile: FileSystem.absolutePath(config)) } catch { throw Self.fail("\(error)") }
        }
        if let socket { configuration.socketPath = FileSystem.absolutePath(socket) }
        if let logFile { configuration.logFile = FileSystem.absolutePath(logFile) }
        if let settleMs { configuration.settleMilliseconds = settleMs }
        if let socketGroup { configuration.socketGroup = socketGroup }
        if let adminGroup { configuration.adminGroup = adminGroup }
        if let metricsFile { configuration.metricsFile = FileSystem.absolutePath(metricsFile) }
        if let idleExit {
            guard (0...604_800).contains(idleExit) else { throw Self.fail("--idle-exit: expected seconds in 0…604800") }
            configuration.idleExitSeconds = idleExit
        }
        (configuration.startedBy, configuration.log) = Self.origin(startedBy: startedBy, environment: env)
        // A metrics file that cannot be written is said now, not found missing by the fleet later.
        if let path = configuration.metricsFile {
            do { try FileSystem.writeAtomically(path, [], mode: 0o644, exactMode: true) } catch {
                throw Self.fail("cannot write the metrics file: \(error)")
            }
        }
        let policy: AccessPolicy
        do { policy = try Self.policy(configuration) } catch { throw Self.fail("\(error)") }
        configuration.roots += roots.map(FileSystem.absolutePath)
        if allowProjectExec { configuration.allowProjectExec = true }
        configuration.ruleSources = ShippedModules.sources(
            environment: env, extra: configuration.ruleDirectories + extraRules.rules.map(FileSystem.absolutePath))
        configuration.ruleSources.allowUntrustedExec = configuration.allowProjectExec
        try RuleLocations.requireRules(configuration.ruleSources.load(registry: BuiltinKinds.registry), sources: configuration.ruleSources)
        return (configuration, policy)
    }

    /// How it was started and where its own log (stderr) goes, for `status`.
    static func origin(startedBy: String?, environment env: [String: String]) -> (String, String?) {
        let how =
            startedBy.map { "on demand by \($0)" } ?? (env["INVOCATION_ID"] != nil || env["LISTEN_FDS"] != nil ? "systemd" : "by hand")
        if env["JOURNAL_STREAM"] != nil { return (how, "the journal (journalctl -u reswatch)") }
        if isatty(STDERR_FILENO) == 1 { return (how, "the terminal it runs in") }
        if let target = FileSystem.realPath("/proc/self/fd/2"), target.hasPrefix("/"), target != "/dev/null",
            (try? FileSystem.status(target))?.kind == .regular
        {
            return (how, target)
        }
        return (how, nil)
    }

    /// Roots it cannot watch are said; if it can watch none of those it was given, a daemon that
    /// checks nothing must not run on as if all were well.
    static func requireWatchableRoots(_ roots: [String]) throws {
        let unusable = roots.compactMap { root -> String? in
            let shown = FileName.display(root)
            guard let status = try? FileSystem.statusFollowingLinks(root) else { return "\(shown): no such directory" }
            if status.kind != .directory { return "\(shown): not a directory" }
            return FileSystem.isReadable(root) ? nil : "\(shown): permission denied"
        }
        if !roots.isEmpty && unusable.count == roots.count {
            for reason in unusable { StandardError.say("reswatch: cannot watch \(reason)") }
            throw fail("none of the roots can be watched; not starting")
        }
    }

    /// The socket systemd passed (socket activation), or the configured path, prepared.
    static func listen(_ configuration: inout DaemonConfiguration, _ policy: inout AccessPolicy, environment env: [String: String]) throws
        -> SocketActivation.Listener?
    {
        let activated: SocketActivation.Listener?
        do { activated = try SocketActivation.listener(environment: env) } catch { throw fail("socket activation: \(error)") }
        if let activated {
            configuration.socketPath = activated.path
            // The unit's SocketGroup= (the socket systemd made) names the readers, unless the
            // config says otherwise.
            if policy.readerGroup == nil, let group = (try? FileSystem.status(activated.path))?.group, group != 0 {
                policy.readerGroup = group
            }
        } else {
            do { try SocketServerService.prepare(path: configuration.socketPath, group: policy.socketGroup) } catch {
                throw fail("\(error)")
            }
        }
        return activated
    }

    /// The core and its socket server: the daemon's own services, shared with `lsp --no-daemon`.
    static func coreServices(
        configuration: DaemonConfiguration, logger: Logger, eventLog: EventLog?, notifier: SystemdNotifier,
        policy: AccessPolicy = AccessPolicy(), activated: SocketActivation.Listener? = nil
    ) -> (DaemonCore, [any Service]) {
        let core = DaemonCore(
            configuration: configuration, version: ReswatchVersion.string, logger: logger, eventLog: eventLog, notifier: notifier)
        let server = SocketServerService(
            core: core, path: configuration.socketPath, logger: logger,
            limits: ClientLimits(
                maxClients: configuration.maxClients, queueBytes: configuration.subscriberQueueBytes,
                idleTimeoutSeconds: configuration.clientIdleTimeoutSeconds), policy: policy, activated: activated)
        return (core, [CoreService(core: core), server])
    }

    struct UnknownGroup: Error, CustomStringConvertible {
        let description: String
    }

    /// The access policy of the config: the daemon's user and root are admins; the groups named
    /// must exist (a typo must not silently leave the socket private, or open it to no one).
    static func policy(_ configuration: DaemonConfiguration) throws -> AccessPolicy {
        func gid(_ name: String?, _ key: String) throws -> UInt32? {
            guard let name else { return nil }
            guard let id = UserDatabase.groupID(named: name) else { throw UnknownGroup(description: "\(key): no group named '\(name)'") }
            return id
        }
        return AccessPolicy(
            adminGroup: try gid(configuration.adminGroup, "admin-group"), readerGroup: try gid(configuration.socketGroup, "socket-group"))
    }
}
