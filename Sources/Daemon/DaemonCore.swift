import Dispatch
import Findings
import Foundation
import Logging
import ReswatchProtocol
import RuleEngine
import SystemCalls
import Watcher

/// The daemon's state: one incremental engine per watched root, the diagnostics generation,
/// subscribers and sync waiters. Watcher events are settled here and applied as change sets.
///
/// The actor never waits on big work: scans, rescans and change sets run on each root's own
/// engine thread (`EngineWorker`), one job per root at a time, while the actor answers requests
/// from what the jobs returned. A root whose first scan runs is `scanning` meanwhile.
package actor DaemonCore {
    package nonisolated let configuration: DaemonConfiguration
    package nonisolated let version: String
    let watcher: any WatchEventSource
    let logger: Logger
    let eventLog: EventLog?
    let notifier: SystemdNotifier
    var modules: RuleModules
    /// The roots watched and the configured ones not reached yet (`RootBook`).
    var roots: RootBook<WatchedRoot>
    /// Configured roots `start` gave the watcher before their turn to be scanned, all at once (the
    /// watcher places their watches while the first roots are scanned), and what is known of
    /// their watches: a root whose watches were in place before its scan began needs no follow-up
    /// rescan (with 1,000 roots, those rescans left 4.8 MB of anonymous memory; docs/performance.md).
    var watchedAhead = WatchedAhead()
    /// One bound on cached file facts for every root (`factsCacheEntries`), not one per root.
    package nonisolated let caches: EngineCaches
    package private(set) var generation = 0
    let started = Date()
    var subscribers = SubscriberHub()
    var metrics = DaemonMetrics()
    var metricsWrite: Task<Void, Never>?
    /// Connections open on the socket (the socket server counts them).
    package nonisolated let clientGauge = ClientGauge()
    /// Trims the heap after large messages on the socket (the socket server tells it).
    package nonisolated let pages = PageReleaser()
    /// Changes read from the watcher and not yet applied (`DaemonCore+Settling.swift`).
    var queue = SettleQueue()
    var flushTask: Task<Void, Never>?
    /// `sync` calls waiting for every change read before them to be applied.
    var barriers = SyncBarriers<CheckedContinuation<Bool, Never>>()
    /// Engine jobs running, and those waiting for a slot: whole-root jobs and change sets each
    /// have a pool (`EngineSlots`).
    var slots = (
        wholeRoot: EngineSlots<CheckedContinuation<Void, Never>>(trimAfter: 1),
        changes: EngineSlots<CheckedContinuation<Void, Never>>(trimAfter: 16)
    )
    /// How far start-up has come; READY=1 goes out once, when the socket listens and every
    /// configured root has been scanned.
    struct Startup: OptionSet {
        let rawValue: Int
        static let listening = Startup(rawValue: 1)
        static let rootsAdded = Startup(rawValue: 2)
        static let announced = Startup(rawValue: 4)
    }
    var startup: Startup = []
    var shutdownRequest: (@Sendable () async -> Void)?
    var idleWatch: Task<Void, Never>?

    /// `watcher`: where events come from; the daemon's inotify watcher unless given (tests give
    /// a scripted one).
    package init(
        configuration: DaemonConfiguration, version: String, logger: Logger, eventLog: EventLog?, notifier: SystemdNotifier,
        watcher: (any WatchEventSource)? = nil
    ) {
        self.configuration = configuration
        caches = EngineCaches(capacity: configuration.factsCacheEntries)
        self.version = version
        self.logger = logger
        self.eventLog = eventLog
        self.notifier = notifier
        self.watcher = watcher ?? InotifyWatcher(excludes: configuration.excludes)
        modules = RuleModules(sources: configuration.ruleSources, kinds: configuration.kinds)
        roots = RootBook(configured: configuration.roots.map { FileSystem.absolutePath($0) })
    }

    /// Starts watching: rule directories first, then the configured roots.
    package func start() async {
        watcher.start()
        for dir in configuration.ruleSources.directories where FileManager.default.fileExists(atPath: dir) {
            watcher.add(root: dir)
        }
        for error in modules.errors { reportModuleError(error) }
        for root in Self.watchableAhead(roots.configured, besides: Array(roots.keys)) {
            watchedAhead.asked.insert(root)
            watcher.add(root: root)
        }
        for root in configuration.roots {
            // Removed by `watch/remove` while it waited (or added early by `watch/add`).
            guard roots.configured.contains(FileSystem.absolutePath(root)) else { continue }
            do {
                try await watch(root)
            } catch {
                logger.error("cannot watch \(root): \(error.message)")
                roots.dropConfigured(FileSystem.absolutePath(root))
                forgetWatchedAhead(FileSystem.absolutePath(root))
            }
        }
        roots.startFinished()
        startup.insert(.rootsAdded)
        announceReadyIfScanned()
        if configuration.idleExitSeconds > 0 { idleWatch = Task { await self.exitWhenIdle() } }
    }

    /// A daemon started on demand exits after `idle-exit` seconds with no client connected (a
    /// subscriber is a connection): it does not outlive its editor forever.
    func exitWhenIdle() async {
        let limit = Duration.seconds(configuration.idleExitSeconds)
        var idleSince: ContinuousClock.Instant?
        while !Task.isCancelled {
            let now = ContinuousClock.now
            if clientGauge.current > 0 {
                idleSince = nil
            } else if let since = idleSince, now - since >= limit {
                logger.notice("no client for \(configuration.idleExitSeconds) s (idle-exit): exiting")
                eventLog?.write("state", ["state": .string("idle-exit")])
                await requestShutdown()
                return
            } else if idleSince == nil {
                idleSince = now
            }
            try? await Task.sleep(for: min(limit / 4, .seconds(5)), tolerance: .milliseconds(100))
        }
    }

    package func setShutdownHandler(_ handler: @escaping @Sendable () async -> Void) { shutdownRequest = handler }

    package func requestShutdown() async { await shutdownRequest?() }

    /// Stops the watcher thread (graceful shutdown).
    package func stop() {
        flushTask?.cancel()
        idleWatch?.cancel()
        for waiter in barriers.removeAll() { waiter.resume(returning: false) }
        watcher.stop()
    }

    package var watcherEvents: AsyncStream<WatchEvent> { watcher.events }

    /// After the watcher's stream ended: its private folder goes (once, whoever comes first).
    package func watcherFinished() { watcher.removeWakeDirectory() }

    // MARK: - roots

    package func addRoot(_ path: String) async throws(RPCError) -> [String] {
        try await watch(path)
        return rootPaths
    }

    /// Watches and scans `path` (`addRoot` without the list of roots it answers with: `start`
    /// adds its roots with this, which for 1,000 roots built and sorted that list 1,000 times).
    func watch(_ path: String) async throws(RPCError) {
        let root = FileSystem.absolutePath(path)
        if roots.admission(of: root) == .watchedAlready { return }
        guard let status = try? FileSystem.statusFollowingLinks(root), status.kind == .directory else {
            throw .invalidParams("\(root) is not a directory")
        }
        guard FileSystem.isReadable(root) else { throw .invalidParams("\(root) cannot be read (permission denied)") }
        // A path in a configured root the daemon has not reached yet (it is starting): that root
        // is added now, as `start` would, not the path as a root of its own, which would keep
        // the configured root out as overlapping.
        switch roots.admission(of: root) {
        case .watchedAlready: return
        case .inConfigured(let waiting): return try await watch(waiting)
        case .overlaps(let other): throw .invalidParams("\(root) overlaps the watched root \(other)")
        case .admitted: break
        }
        // Watch first, scan second: nothing written during the scan is lost (the watcher also
        // sends a rescan once its watch is in place, unless it was in place before the scan
        // began: a root watched ahead, DaemonCore+WatchAhead.swift).
        let token = roots.nextToken()
        let worker = EngineWorker(
            Engine(
                root: root, rules: modules.current, registry: configuration.kinds, excludes: configuration.excludes,
                caches: caches, allowProjectExec: configuration.allowProjectExec))
        roots.add(root, WatchedRoot(worker: worker, token: token))
        forgetWatchedAhead(within: root)
        let wasAhead = watchedAhead.asked.remove(root) != nil
        if !wasAhead { watcher.add(root: root) }
        // Its watches are in place and the scan has not begun: nothing can slip between them.
        let watchedBeforeScan = watchesInPlaceBeforeScan(root, watchedAhead: wasAhead)
        publishStatus()
        logger.info("watching \(root)")
        eventLog?.write("state", ["root": .string(root), "state": .string("scanning")])
        // The scan runs on the root's engine thread: other requests are answered meanwhile.
        guard await runEngine(root, token: token, wholeRoot: true, { $0.fullScan() }) != nil, var record = roots[root],
            record.token == token
        else {
            return  // removed while it was scanning
        }
        record.watched(degradedBecause: watcher.degradedRoots[root])
        record.watchConfirmed = record.watchConfirmed || watchedBeforeScan
        roots[root] = record
        eventLog?.write(
            "state", ["root": .string(root), "state": .string(record.state.rawValue), "files": .number(Double(record.summary.files))])
        logger.info("\(root): \(record.summary.files) files, \(record.diagnostics.bySeverity.total) diagnostics")
        publishStatus()
        // Changes that arrived during the scan are applied now; sync no longer skips this root.
        if queue.isSettling, flushTask == nil { flushTask = Task { await self.settle() } }
        releaseBarriers()
        announceReadyIfScanned()
    }

    /// `a` is `b` or lies in it, on whole path segments, "/" included ("/" + "/" is no prefix of
    /// anything).
    static func within(_ a: String, _ b: String) -> Bool { RootBook<WatchedRoot>.within(a, b) }

    package func removeRoot(_ path: String) throws(RPCError) -> [String] {
        let root = FileSystem.absolutePath(path)
        if roots.dropConfigured(root) {
            // A configured root the starting daemon has not reached: it is never scanned.
            forgetWatchedAhead(root)
            logger.info("will not watch \(root): removed before its turn")
            publishStatus()
            return rootPaths
        }
        guard let record = roots.removeValue(forKey: root) else { throw .notFound("\(root) is not watched") }
        watcher.remove(root: root)
        watchedAhead.found.remove(root)
        for waiter in record.waiting { waiter.resume() }  // they see the root gone and give up
        queue.forget(root)
        caches.facts.forget(under: root)
        if !record.diagnostics.isEmpty {
            generation += 1
            broadcast(DiagnosticDelta(added: [], removed: record.diagnostics.all))
        }
        eventLog?.write("state", ["root": .string(root), "state": .string("removed")])
        logger.info("stopped watching \(root)")
        publishStatus()
        releaseBarriers()
        return rootPaths
    }

    /// The roots watched, and while the daemon starts, the configured roots it has not reached
    /// yet (`status` lists them `scanning`, waiting; `watch/remove` takes them out).
    package var rootPaths: [String] { roots.paths }

    /// Runs `job` on the root's engine thread, after any job of the root already running (so
    /// deltas are published in the order they were computed), and publishes its delta, after
    /// what earlier jobs left unpublished. Not `publishing`: the delta is kept for the next
    /// publication (a change applied while it settles). In the root's turn, a job also takes a
    /// slot of its pool (`EngineSlots`): a `wholeRoot` job (a scan, a rescan, new rules) one of
    /// the whole-root jobs', any other one of the change sets'. Nil when the root was removed
    /// meanwhile.
    @discardableResult
    func runEngine(
        _ root: String, token: UInt64? = nil, publishing: Bool = true, wholeRoot: Bool = false,
        _ job: @escaping @Sendable (Engine) -> DiagnosticDelta
    ) async -> DiagnosticDelta? {
        guard let record = roots[root], record.token == token ?? record.token else { return nil }
        let token = record.token
        let worker = record.worker
        if roots[root]?.busy == true {
            // In turn: the job before hands the root over (busy stays set), or removal ends the wait.
            await withCheckedContinuation { roots[root]?.waiting.append($0) }
            guard roots[root]?.token == token else { return nil }
        } else {
            roots[root]?.busy = true
        }
        await enterSlot(wholeRoot: wholeRoot)
        guard roots[root]?.token == token else {
            leaveSlot(wholeRoot: wholeRoot)
            return nil
        }
        var (delta, summary, long) = await worker.run(job)
        leaveSlot(wholeRoot: wholeRoot, long: long)
        metrics.observeRules(summary.rules)
        summary.rules = []
        guard roots[root]?.token == token else { return nil }
        roots[root]?.summary = summary
        let pending = roots[root]?.unpublished.map { $0.followed(by: delta) } ?? delta
        if publishing {
            roots[root]?.unpublished = nil
            publish(root: root, pending)
        } else {
            roots[root]?.unpublished = pending
        }
        if let next = roots[root]?.waiting.first {
            roots[root]?.waiting.removeFirst()
            next.resume()
        } else {
            roots[root]?.busy = false
        }
        return delta
    }

    /// Takes a slot of the pool at once when one is free (no suspension: a lone change is not
    /// delayed), else waits in line for one.
    func enterSlot(wholeRoot: Bool) async {
        if wholeRoot ? slots.wholeRoot.tryEnter() : slots.changes.tryEnter() { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            if wholeRoot { slots.wholeRoot.queue(waiter) } else { slots.changes.queue(waiter) }
        }
    }

    /// Gives the slot to the next in line; when the pool says so (`EngineSlots`), free heap pages
    /// go back to the kernel, off the actor. After whole-root jobs (scans), the file caches are
    /// emptied first (`EngineCaches.shedScanLeftovers`): what a scan left there is not what a
    /// change will read.
    func leaveSlot(wholeRoot: Bool, long: Bool = false) {
        let (next, trim) = wholeRoot ? slots.wholeRoot.leave(long: long) : slots.changes.leave(long: long)
        next?.resume()
        guard trim else { return }
        metrics.engineTrims += 1
        let caches = wholeRoot && configuration.shedCachesAfterScans ? caches : nil
        DispatchQueue.global(qos: .utility).async {
            caches?.shedScanLeftovers()
            _ = ProcessMemory.releaseFreePages()
        }
    }

    /// The socket server accepts connections.
    package func serverListening() {
        startup.insert(.listening)
        announceReadyIfScanned()
    }

    /// READY=1 once the socket accepts connections and every initial root is scanned.
    func announceReadyIfScanned() {
        guard startup == [.listening, .rootsAdded], roots.values.allSatisfy({ $0.health != .scanning }) else { return }
        startup.insert(.announced)
        notifier.notify("READY=1\nSTATUS=\(statusLine)")
    }

    var statusLine: String {
        let errors = roots.values.reduce(0) { $0 + $1.diagnostics.bySeverity[.error] }
        let warnings = roots.values.reduce(0) { $0 + $1.diagnostics.bySeverity[.warning] }
        return "watching \(roots.count) root\(roots.count == 1 ? "" : "s"): \(errors) errors, \(warnings) warnings"
    }

    // MARK: - publishing

    func publish(root: String, _ delta: DiagnosticDelta) {
        guard !delta.isEmpty else { return }
        generation += 1
        roots[root]?.diagnostics.apply(delta)
        roots[root]?.lastChange = Date()
        broadcast(delta)
        publishStatus()  // the counts changed
        scheduleMetricsWrite()
        for d in delta.added { eventLog?.write("diagnostic.added", Self.logFields(d)) }
        for d in delta.removed { eventLog?.write("diagnostic.removed", Self.logFields(d)) }
        if configuration.logFindings {
            for d in delta.added {
                logger.log(level: Self.level(d.severity), "\(d.path): \(d.message)", metadata: Self.journalFields(d, "added"))
            }
            for d in delta.removed { logger.info("fixed: \(d.path): \(d.message)", metadata: Self.journalFields(d, "removed")) }
        }
        if startup.contains(.announced) && notifier.socketPath != nil { notifier.notify("STATUS=\(statusLine)") }
    }

    /// Publishes what engine jobs of the root left unpublished, if anything.
    func publishUnpublished(root: String) {
        guard let delta = roots[root]?.unpublished else { return }
        roots[root]?.unpublished = nil
        publish(root: root, delta)
    }

    func broadcast(_ delta: DiagnosticDelta) { subscribers.broadcast(delta, generation: generation) }

    func publishStatus() {
        scheduleMetricsWrite()
        guard !subscribers.isEmpty else { return }
        subscribers.broadcast(RPCEncoder.notification(.statusChanged, status()))
    }

    func reportModuleError(_ error: ModuleError) {
        logger.error("rule module \(error.description)")
        eventLog?.write(
            "module_error",
            ["file": .string(error.file), "line": error.line.map { .number(Double($0)) } ?? .null, "message": .string(error.message)])
    }
}
