import Foundation
import ReswatchProtocol
import RuleEngine
import Watcher

/// Watcher events: collected until `settle-ms` of quiet, then handed to each root's engine thread
/// as one change set; sync barriers are answered once every change read before them is applied.
extension DaemonCore {
    package func receive(_ event: WatchEvent) {
        switch event {
        case .changed(let root, let path):
            queue.count()
            if modules.sources.directories.contains(root) {
                guard path.hasSuffix(".yaml") || path.hasSuffix(".yml") else { return }
                queue.ruleModuleChanged()
            } else {
                queue.changed(path, in: root)
                prepare(root, path)
            }
        case .rescan(let root, let reason):
            // No barrier is answered by a rescan: the watcher sends each barrier after the
            // rescans of whatever was lost before it (`WatchLoop.confirmBarrier`), never drops
            // one, and sends again those a kernel overflow lost (`reissueBarriers`).
            queue.count()
            if modules.sources.directories.contains(root) {
                if reason == .watchAdded { return }  // loaded at start already
                queue.ruleModuleChanged()
            } else if reason == .watchAdded, watchedAheadInPlace(root) {
                return  // its scan (to come, or begun with the watches in place) needs no rescan after it
            } else {
                queue.rescan(root, because: reason)
            }
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
            if barriers.seen(id, at: queue.sequence) { releaseBarriers() }
            return
        }
        // Quiet is counted from when the watcher read the event, not from its arrival here.
        let now = ContinuousClock.now
        let read = watcher.lastEventRead.map { min($0, now) } ?? now
        queue.read(at: read)
        if flushTask == nil { flushTask = Task { await self.settle() } }
    }

    /// Waits for `settle-ms` of quiet (or the cap), then hands everything pending to the engines.
    func settle() async {
        let settle = Duration.milliseconds(configuration.settleMilliseconds)
        let cap = Duration.milliseconds(configuration.settleCapMilliseconds)
        while !Task.isCancelled {
            let now = ContinuousClock.now
            guard let wait = queue.wait(now: now, settle: settle, cap: cap) else { break }
            if wait > Self.awakeStretch {
                // No timer slack: the settle time is the latency floor.
                try? await Task.sleep(until: now + wait - Self.awakeStretch, tolerance: .zero, clock: .continuous)
            } else {
                // The last stretch is waited out awake, yielding to events that come meanwhile.
                await Task.yield()
            }
        }
        flushTask = nil
        if !Task.isCancelled { flush() }
    }

    /// How much of a settle is waited out awake rather than asleep: a task woken from a sleep of
    /// many milliseconds ran about 0.1 ms after its deadline (the timer's thread wakes, then the
    /// task's), which was all of the gap to watchman at a 20 ms settle (docs/performance.md).
    static let awakeStretch = Duration.microseconds(300)

    /// Starts one job per root with pending changes (and a rule reload first when a module
    /// changed). Returns at once: the jobs run on the roots' engine threads.
    func flush() {
        let batch = queue.take()
        if logger.logLevel <= .debug, let first = batch.firstEvent {
            logger.debug("batch started after \(ContinuousClock.now - first) of settling")
        }
        if batch.reloadRules {
            let id = queue.begin(SettleQueue.rulesKey, since: batch.since[SettleQueue.rulesKey])
            Task {
                await self.reload(reason: "a rule module changed")
                self.finishBatch(id)
            }
        }
        // Batches published right here are finished after the loop: finishing one answers sync
        // barriers, which must see every batch of this flush begun first.
        var publishedHere: [UInt64] = []
        for root in batch.roots where roots[root] != nil {
            let id = queue.begin(root, since: batch.since[root])
            let changed = batch.paths[root] ?? []
            let rescan = batch.rescans[root]
            let firstEvent = batch.firstEvent
            if let prepared = roots[root]?.prepared {
                roots[root]?.prepared = nil
                // The prepared change is the whole batch when nothing else of the root was read
                // after it (the same file written again counts).
                let whole = rescan == nil && batch.events[root] == 1 && changed == prepared.paths
                metrics.preparedBatches[whole ? "used" : "redone", default: 0] += 1
                if whole && prepared.done {
                    // Applied already: published now, with no hop to the engine thread.
                    publishUnpublished(root: root)
                    if let firstEvent { metrics.observeBatch(Self.seconds(ContinuousClock.now - firstEvent)) }
                    publishedHere.append(id)
                    continue
                }
                // Otherwise the batch is applied as usual, after it, and both are published as one.
                Task {
                    await prepared.job?.value
                    if whole {
                        self.publishUnpublished(root: root)
                    } else {
                        await self.apply(root: root, changed: changed, rescan: rescan)
                    }
                    if let firstEvent { self.metrics.observeBatch(Self.seconds(ContinuousClock.now - firstEvent)) }
                    self.finishBatch(id)
                }
                continue
            }
            Task {
                await self.apply(root: root, changed: changed, rescan: rescan)
                if let firstEvent { self.metrics.observeBatch(Self.seconds(ContinuousClock.now - firstEvent)) }
                self.finishBatch(id)
            }
        }
        for id in publishedHere { finishBatch(id) }
    }

    /// A root's first change of a batch is applied at once, while the batch settles; its findings
    /// wait for the batch (`flush`). Most batches are that one change (an editor's save), so the
    /// engine's work leaves the path from the last event to the published findings. Only for a
    /// ready root with no engine job running or batch being applied (its findings would carry
    /// this change before its batch settled): anything else waits for the batch, as before.
    func prepare(_ root: String, _ path: String) {
        guard queue.pendingEvents(of: root) == 1, !queue.isApplying(root), let record = roots[root], record.health != .scanning,
            !record.busy, record.prepared == nil
        else { return }
        let token = record.token
        let paths: Set<String> = [path]
        roots[root]?.prepared = WatchedRoot.Prepared(paths: paths)
        roots[root]?.prepared?.job = Task {
            await self.runEngine(root, token: token, publishing: false) { $0.apply(changedPaths: paths) }
            self.prepared(root, token: token)
        }
    }

    /// The prepared change of `root` is applied.
    func prepared(_ root: String, token: UInt64) {
        guard roots[root]?.token == token else { return }
        roots[root]?.prepared?.done = true
    }

    func finishBatch(_ batch: UInt64) {
        queue.finish(batch)
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
        guard await runEngine(root, wholeRoot: true, { $0.rescan() }) != nil, let record = roots[root] else { return }
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
        guard barriers.hasSeen else { return }
        let oldest = queue.oldestUnapplied { key in
            key == SettleQueue.rulesKey || (roots[key].map { $0.health != .scanning } ?? false)
        }
        for waiter in barriers.release(below: oldest) { waiter.resume(returning: true) }
    }
}

extension DaemonCore {
    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
}
