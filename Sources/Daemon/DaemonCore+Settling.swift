import Foundation
import ReswatchProtocol
import RuleEngine
import Watcher

/// Watcher events: collected until `settle-ms` of quiet, then handed to each root's engine thread
/// as one change set; sync barriers are answered once every change read before them is applied.
extension DaemonCore {
    /// The key of rule-module changes among the roots' (no root path is empty).
    static let rulesKey = ""

    public func receive(_ event: WatchEvent) {
        switch event {
        case .changed(let root, let path):
            eventSequence += 1
            if modules.sources.directories.contains(root) {
                guard path.hasSuffix(".yaml") || path.hasSuffix(".yml") else { return }
                pendingRuleReload = true
                markPending(Self.rulesKey)
            } else {
                pendingPaths[root, default: []].insert(path)
                markPending(root)
            }
        case .rescan(let root, let reason):
            eventSequence += 1
            if modules.sources.directories.contains(root) {
                if reason == .watchAdded { return }  // loaded at start already
                pendingRuleReload = true
                markPending(Self.rulesKey)
            } else {
                pendingRescans[root] = reason
                markPending(root)
            }
            // Events were lost (a full kernel queue drops the barrier's own event too): the rescan
            // reads the disk after every barrier registered so far was written, so it answers them.
            for (id, waiter) in barrierWaiters { seenWaiters[id] = (eventSequence, waiter) }
            barrierWaiters = [:]
        case .degraded(let root, let reason):
            roots[root]?.health = .degraded(reason: reason)
            logger.error("\(root): \(reason)")
            eventLog?.write("state", ["root": .string(root), "state": .string("degraded"), "reason": .string(reason)])
            notifier.notify("STATUS=degraded: \(reason)")
            publishStatus()
            return
        case .recovered(let root):
            roots[root]?.health = .ready
            logger.notice("\(root): fully watched again")
            publishStatus()
            return
        case .rootGone(let root):
            logger.warning("\(root) was deleted or moved away; it is no longer watched")
            _ = try? removeRoot(root)
            return
        case .barrier(let id):
            guard let waiter = barrierWaiters.removeValue(forKey: id) else { return }
            seenWaiters[id] = (eventSequence, waiter)
            releaseBarriers()
            return
        }
        // Quiet is counted from when the watcher read the event, not from its arrival here.
        let now = ContinuousClock.now
        let read = watcher.lastEventRead.map { min($0, now) } ?? now
        if firstPending == nil { firstPending = read }
        lastEvent = read
        if flushTask == nil { flushTask = Task { await self.settle() } }
    }

    func markPending(_ key: String) {
        if pendingSince[key] == nil { pendingSince[key] = eventSequence }
    }

    /// Waits for `settle-ms` of quiet (or the cap), then hands everything pending to the engines.
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
        if !Task.isCancelled { flush() }
    }

    /// Starts one job per root with pending changes (and a rule reload first when a module
    /// changed). Returns at once: the jobs run on the roots' engine threads.
    func flush() {
        let paths = pendingPaths
        let rescans = pendingRescans
        let reloadRules = pendingRuleReload
        let since = pendingSince
        firstPendingAtFlush = firstPending
        if logger.logLevel <= .debug, let first = firstPending {
            logger.debug("batch started after \(ContinuousClock.now - first) of settling")
        }
        pendingPaths = [:]
        pendingRescans = [:]
        pendingRuleReload = false
        pendingSince = [:]
        firstPending = nil
        lastEvent = nil
        if reloadRules {
            let batch = beginBatch(Self.rulesKey, since: since[Self.rulesKey])
            Task {
                await self.reload(reason: "a rule module changed")
                self.finishBatch(batch)
            }
        }
        let firstEvent = firstPendingAtFlush
        for root in Set(paths.keys).union(rescans.keys).sorted() where roots[root] != nil {
            let batch = beginBatch(root, since: since[root])
            let changed = paths[root] ?? []
            let rescan = rescans[root]
            Task {
                await self.apply(root: root, changed: changed, rescan: rescan)
                if let firstEvent { self.metrics.observeBatch(Self.seconds(ContinuousClock.now - firstEvent)) }
                self.finishBatch(batch)
            }
        }
    }

    func beginBatch(_ key: String, since: UInt64?) -> UInt64 {
        nextBatch += 1
        applying[nextBatch] = (key, since ?? eventSequence)
        return nextBatch
    }

    func finishBatch(_ batch: UInt64) {
        applying[batch] = nil
        releaseBarriers()
        announceReadyIfScanned()
    }

    /// One root's change set (or rescan) on its engine thread.
    func apply(root: String, changed: Set<String>, rescan reason: RescanReason?) async {
        guard let reason else {
            let t0 = ContinuousClock.now
            let delta = await runEngine(root) { $0.apply(changedPaths: changed) }
            if logger.logLevel <= .debug, let delta {
                logger.debug("engine: \(delta.evaluationsRun) evaluations in \(ContinuousClock.now - t0)")
            }
            return
        }
        let initial = reason == .watchAdded
        metrics.rescans[root, default: [:]][reason, default: 0] += 1
        if !initial {
            roots[root]?.recrawls += 1
            logger.warning("\(root): rescanning (\(reason))")
        }
        eventLog?.write("rescan", ["root": .string(root), "reason": .string(reason.rawValue)])
        guard await runEngine(root, { $0.rescan() }) != nil, let record = roots[root] else { return }
        if initial && !record.watchConfirmed {
            roots[root]?.watchConfirmed = true
            roots[root]?.watched(degradedBecause: watcher.degradedRoots[root])
            eventLog?.write(
                "state",
                [
                    "root": .string(root), "state": .string(roots[root]!.state.rawValue),
                    "files": .number(Double(record.summary.files)),
                ])
            publishStatus()
        }
        if roots[root]?.state == .degraded, watcher.degradedRoots[root] == nil {
            roots[root]?.health = .ready
            publishStatus()
        }
    }

    /// Answers every seen barrier older than the oldest change not yet applied. Roots still in
    /// their first scan do not hold sync up (their state says `scanning`; nothing is reported
    /// for them yet).
    func releaseBarriers() {
        guard !seenWaiters.isEmpty else { return }
        func counts(_ key: String) -> Bool { key == Self.rulesKey || (roots[key].map { $0.health != .scanning } ?? false) }
        var oldest = UInt64.max
        for (key, since) in pendingSince where counts(key) { oldest = min(oldest, since) }
        for (_, batch) in applying where counts(batch.root) { oldest = min(oldest, batch.since) }
        for (id, seen) in seenWaiters where seen.sequence < oldest {
            seenWaiters[id] = nil
            seen.waiter.resume(returning: true)
        }
    }
}

extension DaemonCore {
    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
}
