import Logging
import ServiceLifecycle
import UnixSignals

/// Starts the core and feeds it watcher events meanwhile; on graceful shutdown stops the watcher thread.
package struct CoreService: Service {
    let core: DaemonCore

    package init(core: DaemonCore) { self.core = core }

    package func run() async throws {
        let events = await core.watcherEvents
        await withGracefulShutdownHandler {
            // Events are read while the roots are added, not after: a root whose watches are
            // confirmed before its scan begins is spared a rescan (DaemonCore+WatchAhead.swift),
            // and changes read during the first scans are applied as each root becomes ready.
            async let started: Void = core.start()
            for await event in events { await core.receive(event) }
            await started
        } onGracefulShutdown: {
            Task { await core.stop() }
        }
        // The watcher's thread has ended (its stream finished): remove its private folder before
        // the process can exit (the detached stop above may not have got that far).
        await core.watcherFinished()
    }
}

/// SIGHUP reloads rule modules; SIGUSR1 reopens the JSON log (logrotate).
package struct SignalService: Service {
    let core: DaemonCore
    let eventLog: EventLog?
    let logger: Logger

    package init(core: DaemonCore, eventLog: EventLog?, logger: Logger) {
        self.core = core
        self.eventLog = eventLog
        self.logger = logger
    }

    package func run() async throws {
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

/// systemd integration that is not READY=1 (the core sends that after the initial scan):
/// WATCHDOG=1 at half of `WATCHDOG_USEC` while the core's actor answers, and STOPPING=1 as soon as
/// a graceful shutdown begins (this service is listed last, so it is the first to hear of it).
package struct SystemdService: Service {
    let core: DaemonCore
    let notifier: SystemdNotifier

    package init(core: DaemonCore, notifier: SystemdNotifier) {
        self.core = core
        self.notifier = notifier
    }

    package func run() async throws {
        if let interval = notifier.watchdogInterval {
            // Cancelled at shutdown; a cancelled sleep must not count as this service failing
            // (ServiceGroup would then cancel every other service instead of stopping them).
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    _ = await core.generation  // proves the actor is not wedged
                    notifier.notify("WATCHDOG=1")
                    try? await Task.sleep(for: interval)
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        notifier.notify("STOPPING=1")
    }
}
