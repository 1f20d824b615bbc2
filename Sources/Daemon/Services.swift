import Logging
import ServiceLifecycle
import UnixSignals

/// Feeds watcher events to the core; on graceful shutdown stops the watcher thread.
public struct CoreService: Service {
    let core: DaemonCore

    public init(core: DaemonCore) { self.core = core }

    public func run() async throws {
        await core.start()
        let events = await core.watcherEvents
        await withGracefulShutdownHandler {
            for await event in events { await core.receive(event) }
        } onGracefulShutdown: {
            Task { await core.stop() }
        }
    }
}

/// SIGHUP reloads rule modules; SIGUSR1 reopens the JSON log (logrotate).
public struct SignalService: Service {
    let core: DaemonCore
    let eventLog: EventLog?
    let logger: Logger

    public init(core: DaemonCore, eventLog: EventLog?, logger: Logger) {
        self.core = core
        self.eventLog = eventLog
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup, .sigusr1)
        await cancelWhenGracefulShutdown {
            for await signal in signals {
                switch signal {
                case .sighup: await core.reload(reason: "SIGHUP")
                case .sigusr1:
                    do {
                        try eventLog?.reopen()
                        logger.info("reopened the log file")
                    } catch {
                        logger.error("cannot reopen the log file: \(error)")
                    }
                default: break
                }
            }
        }
    }
}

/// WATCHDOG=1 at half of `WATCHDOG_USEC` while the core's actor answers.
public struct WatchdogService: Service {
    let core: DaemonCore
    let notifier: SystemdNotifier

    public init(core: DaemonCore, notifier: SystemdNotifier) {
        self.core = core
        self.notifier = notifier
    }

    public func run() async throws {
        guard let interval = notifier.watchdogInterval else {
            try? await gracefulShutdown()
            return
        }
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = await core.generation  // proves the actor is not wedged
                notifier.notify("WATCHDOG=1")
                try await Task.sleep(for: interval)
            }
        }
    }
}
