import Foundation
import Logging
import ReswatchProtocol
import RuleEngine
import RuleKinds
import Watcher

/// The daemon's state: one incremental engine per watched root, the diagnostics generation,
/// subscribers and sync waiters. Watcher events are settled here and applied as change sets.
public actor DaemonCore {
    struct Root {
        let engine: Engine
        var state: RootStatus.State = .scanning
        var lastChange: Date?
        var recrawls = 0
        var reason: String?
        /// The watch is established and the follow-up rescan has run.
        var watchConfirmed = false
    }

    public nonisolated let configuration: DaemonConfiguration
    public nonisolated let version: String
    let watcher: InotifyWatcher
    let logger: Logger
    let eventLog: EventLog?
    let notifier: SystemdNotifier
    var modules: RuleModules
    var roots: [String: Root] = [:]
    public private(set) var generation = 0
    let started = Date()
    var subscribers: [UInt64: Subscriber] = [:]
    var nextSubscriber: UInt64 = 1
    // Settling.
    var pendingPaths: [String: Set<String>] = [:]
    var pendingRescans: [String: String] = [:]
    var pendingRuleReload = false
    var firstPending: ContinuousClock.Instant?
    var lastEvent: ContinuousClock.Instant?
    var flushTask: Task<Void, Never>?
    // sync barriers: id → waiter. A barrier seen while changes are pending waits for the flush
    // that applies them (settleWaiters); one seen with nothing pending is answered at once.
    var barrierWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    var settleWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    var barrierSequence: UInt64 = 0
    var readyAnnounced = false
    var listening = false
    var startedRoots = false
    var shutdownRequest: (@Sendable () async -> Void)?

    public init(configuration: DaemonConfiguration, version: String, logger: Logger, eventLog: EventLog?, notifier: SystemdNotifier) {
        self.configuration = configuration
        self.version = version
        self.logger = logger
        self.eventLog = eventLog
        self.notifier = notifier
        watcher = InotifyWatcher(excludes: configuration.excludes)
        modules = RuleModules(sources: configuration.ruleSources)
    }

    /// Starts watching: rule directories first, then the configured roots.
    public func start() async {
        watcher.start()
        for dir in configuration.ruleSources.directories where FileManager.default.fileExists(atPath: dir) {
            watcher.add(root: dir)
        }
        for error in modules.errors { reportModuleError(error) }
        for root in configuration.roots {
            do { _ = try await addRoot(root) } catch { logger.error("cannot watch \(root): \(error.message)") }
        }
        startedRoots = true
        announceReadyIfScanned()
    }

    public func setShutdownHandler(_ handler: @escaping @Sendable () async -> Void) { shutdownRequest = handler }

    public func requestShutdown() async { await shutdownRequest?() }

    /// Stops the watcher thread (graceful shutdown).
    public func stop() {
        flushTask?.cancel()
        for (_, w) in barrierWaiters { w.resume(returning: false) }
        for (_, w) in settleWaiters { w.resume(returning: false) }
        barrierWaiters = [:]
        settleWaiters = [:]
        watcher.stop()
    }

    public var watcherEvents: AsyncStream<WatchEvent> { watcher.events }

    /// After the watcher's stream ended: its private folder goes (once, whoever comes first).
    public func watcherFinished() { watcher.removeWakeDirectory() }

    // MARK: - roots

    public func addRoot(_ path: String) async throws(RPCError) -> [String] {
        let root = FileSystem.absolutePath(path)
        guard roots[root] == nil else { return rootPaths }
        guard let status = try? FileSystem.statusFollowingLinks(root), status.kind == .directory else {
            throw .invalidParams("\(root) is not a directory")
        }
        guard FileSystem.isReadable(root) else { throw .invalidParams("\(root) cannot be read (permission denied)") }
        // On whole path segments, "/" included ("/" + "/" is no prefix of anything).
        func within(_ a: String, _ b: String) -> Bool { a == b || a.hasPrefix(b == "/" ? "/" : b + "/") }
        if let other = roots.keys.first(where: { within(root, $0) || within($0, root) }) {
            throw .invalidParams("\(root) overlaps the watched root \(other)")
        }
        // Watch first, scan second: nothing written during the scan is lost (the watcher also
        // sends a rescan once its watch is in place).
        let engine = Engine(
            root: root, rules: modules.current, registry: BuiltinKinds.registry, excludes: configuration.excludes,
            cacheCapacity: configuration.factsCacheEntries, allowProjectExec: configuration.allowProjectExec)
        roots[root] = Root(engine: engine)
        watcher.add(root: root)
        publishStatus()
        logger.info("watching \(root)")
        eventLog?.write("state", ["root": .string(root), "state": .string("scanning")])
        let delta = engine.fullScan()
        roots[root]?.state = watcher.degradedRoots[root] == nil ? .ready : .degraded
        roots[root]?.reason = watcher.degradedRoots[root]
        publish(root: root, delta)
        eventLog?.write(
            "state", ["root": .string(root), "state": .string(roots[root]!.state.rawValue), "files": .number(Double(engine.fileCount))])
        logger.info("\(root): \(engine.fileCount) files, \(engine.severityCounts.values.reduce(0, +)) diagnostics")
        publishStatus()
        return rootPaths
    }

    public func removeRoot(_ path: String) throws(RPCError) -> [String] {
        let root = FileSystem.absolutePath(path)
        guard let record = roots.removeValue(forKey: root) else { throw .notFound("\(root) is not watched") }
        watcher.remove(root: root)
        let removed = record.engine.diagnostics
        if !removed.isEmpty {
            generation += 1
            broadcast(DiagnosticDelta(added: [], removed: removed))
        }
        eventLog?.write("state", ["root": .string(root), "state": .string("removed")])
        logger.info("stopped watching \(root)")
        publishStatus()
        return rootPaths
    }

    public var rootPaths: [String] { roots.keys.sorted() }

    // MARK: - watcher events and settling

    public func receive(_ event: WatchEvent) {
        switch event {
        case .changed(let root, let path):
            if modules.sources.directories.contains(root) {
                if path.hasSuffix(".yaml") || path.hasSuffix(".yml") { pendingRuleReload = true }
            } else {
                pendingPaths[root, default: []].insert(path)
            }
        case .rescan(let root, let reason):
            if modules.sources.directories.contains(root) {
                if reason == "watch added" { return }  // loaded at start already
                pendingRuleReload = true
            } else {
                pendingRescans[root] = reason
            }
            // Events were lost (a full kernel queue drops the barrier's own event too): the rescan
            // reads the disk after every barrier registered so far was written, so it releases them.
            for (id, waiter) in barrierWaiters { settleWaiters[id] = waiter }
            barrierWaiters = [:]
        case .degraded(let root, let reason):
            roots[root]?.state = .degraded
            roots[root]?.reason = reason
            logger.error("\(root): \(reason)")
            eventLog?.write("state", ["root": .string(root), "state": .string("degraded"), "reason": .string(reason)])
            notifier.notify("STATUS=degraded: \(reason)")
            publishStatus()
            return
        case .recovered(let root):
            roots[root]?.state = .ready
            roots[root]?.reason = nil
            logger.notice("\(root): fully watched again")
            publishStatus()
            return
        case .rootGone(let root):
            logger.warning("\(root) was deleted or moved away; it is no longer watched")
            _ = try? removeRoot(root)
            return
        case .barrier(let id):
            guard let waiter = barrierWaiters.removeValue(forKey: id) else { return }
            if pendingPaths.isEmpty && pendingRescans.isEmpty && !pendingRuleReload {
                waiter.resume(returning: true)
            } else {
                settleWaiters[id] = waiter  // answered when the pending changes are applied
            }
            return
        }
        let now = ContinuousClock.now
        if firstPending == nil { firstPending = now }
        lastEvent = now
        if flushTask == nil { flushTask = Task { await self.settle() } }
    }

    /// Waits for `settle-ms` of quiet (or the cap), then applies everything pending.
    func settle() async {
        let settle = Duration.milliseconds(configuration.settleMilliseconds)
        let cap = Duration.milliseconds(configuration.settleCapMilliseconds)
        while !Task.isCancelled {
            let now = ContinuousClock.now
            guard let first = firstPending, let last = lastEvent else { break }
            let quiet = now - last
            let waited = now - first
            if quiet >= settle || waited >= cap { break }
            // No timer slack: the settle time is the latency floor.
            try? await Task.sleep(until: now + min(settle - quiet, cap - waited), tolerance: .zero, clock: .continuous)
        }
        flushTask = nil
        flush()
    }

    func flush() {
        let flushStart = ContinuousClock.now
        let waited = firstPending.map { flushStart - $0 }
        defer {
            if logger.logLevel <= .debug {
                let work = ContinuousClock.now - flushStart
                logger.debug("batch applied: waited \(waited.map { "\($0)" } ?? "-") for quiet, worked \(work)")
            }
        }
        let paths = pendingPaths
        let rescans = pendingRescans
        let reloadRules = pendingRuleReload
        pendingPaths = [:]
        pendingRescans = [:]
        pendingRuleReload = false
        firstPending = nil
        lastEvent = nil
        if reloadRules { reload(reason: "a rule module changed") }
        for root in Set(paths.keys).union(rescans.keys).sorted() {
            guard let record = roots[root] else { continue }
            let changed = paths[root] ?? []
            let delta: DiagnosticDelta
            if let reason = rescans[root] {
                let initial = reason == "watch added"
                if !initial {
                    roots[root]?.recrawls += 1
                    logger.warning("\(root): rescanning (\(reason))")
                }
                eventLog?.write("rescan", ["root": .string(root), "reason": .string(reason)])
                delta = record.engine.rescan()
                if initial && !record.watchConfirmed {
                    roots[root]?.watchConfirmed = true
                    let degraded = watcher.degradedRoots[root]
                    roots[root]?.state = degraded == nil ? .ready : .degraded
                    roots[root]?.reason = degraded
                    eventLog?.write(
                        "state",
                        [
                            "root": .string(root), "state": .string(roots[root]!.state.rawValue),
                            "files": .number(Double(record.engine.fileCount)),
                        ])
                    publishStatus()
                }
                if record.state == .degraded, watcher.degradedRoots[root] == nil {
                    roots[root]?.state = .ready
                    roots[root]?.reason = nil
                    publishStatus()
                }
            } else {
                let t0 = ContinuousClock.now
                delta = record.engine.apply(changedPaths: changed)
                if logger.logLevel <= .debug { logger.debug("engine: \(delta.evaluationsRun) evaluations in \(ContinuousClock.now - t0)") }
            }
            publish(root: root, delta)
        }
        // Every change read before the waiting barriers is applied now.
        let released = settleWaiters
        settleWaiters = [:]
        for (_, w) in released { w.resume(returning: true) }
        announceReadyIfScanned()
    }

    /// The socket server accepts connections.
    public func serverListening() {
        listening = true
        announceReadyIfScanned()
    }

    /// READY=1 once the socket accepts connections and every initial root is scanned.
    func announceReadyIfScanned() {
        guard !readyAnnounced, listening, startedRoots, roots.values.allSatisfy({ $0.state != .scanning }) else { return }
        readyAnnounced = true
        notifier.notify("READY=1\nSTATUS=\(statusLine)")
    }

    var statusLine: String {
        let errors = roots.values.reduce(0) { $0 + ($1.engine.severityCounts[.error] ?? 0) }
        let warnings = roots.values.reduce(0) { $0 + ($1.engine.severityCounts[.warning] ?? 0) }
        return "watching \(roots.count) root\(roots.count == 1 ? "" : "s"): \(errors) errors, \(warnings) warnings"
    }

    // MARK: - publishing

    func publish(root: String, _ delta: DiagnosticDelta) {
        guard !delta.isEmpty else { return }
        generation += 1
        roots[root]?.lastChange = Date()
        broadcast(delta)
        for d in delta.added { eventLog?.write("diagnostic.added", Self.logFields(d)) }
        for d in delta.removed { eventLog?.write("diagnostic.removed", Self.logFields(d)) }
        if readyAnnounced && notifier.socketPath != nil { notifier.notify("STATUS=\(statusLine)") }
    }

    func broadcast(_ delta: DiagnosticDelta) {
        for (_, s) in subscribers {
            let added = delta.added.filter { $0.severity >= s.minimumSeverity }
            let removed = delta.removed.filter { $0.severity >= s.minimumSeverity }
            guard !added.isEmpty || !removed.isEmpty else { continue }
            s.sink.deliver(
                RPCEncoder.notification(.diagnosticsChanged, DiagnosticsChange(generation: generation, added: added, removed: removed)))
        }
    }

    func publishStatus() {
        guard !subscribers.isEmpty else { return }
        let line = RPCEncoder.notification(.statusChanged, status())
        for (_, s) in subscribers { s.sink.deliver(line) }
    }

    static func logFields(_ d: Diagnostic) -> [String: JSONValue] {
        var f: [String: JSONValue] = [
            "rule": .string(d.rule), "severity": .string(d.severity.rawValue), "root": .string(d.root), "path": .string(d.path),
            "message": .string(d.message),
        ]
        if let c = d.code { f["code"] = .string(c) }
        if let l = d.line { f["line"] = .number(Double(l)) }
        return f
    }

    func reportModuleError(_ error: ModuleError) {
        logger.error("rule module \(error.description)")
        eventLog?.write(
            "module_error",
            ["file": .string(error.file), "line": error.line.map { .number(Double($0)) } ?? .null, "message": .string(error.message)])
    }
}
