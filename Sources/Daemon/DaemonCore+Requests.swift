import Findings
import Foundation
import ReswatchProtocol
import RuleEngine
import RuleKit
import SystemCalls

/// What the socket methods ask of the core.
extension DaemonCore {
    package func status() -> StatusResult {
        var list = roots.keys.sorted().map { path -> RootStatus in
            let r = roots[path]!
            let counts = r.diagnostics.bySeverity
            // Never a quiet "no problems": a ready root with nothing to check says so.
            let empty =
                r.state == .ready
                ? r.summary.nothingJudged.map { "nothing to check: \($0), none of what reswatch checks (\(Coverage.lookedFor))" } : nil
            return RootStatus(
                path: path, state: r.state, files: r.summary.files, projects: r.summary.projects,
                errors: counts[.error], warnings: counts[.warning], infos: counts[.info],
                lastChange: r.lastChange.map { EventLog.timestamp($0) }, recrawls: r.recrawls, reason: r.reason ?? empty,
                judged: r.state == .scanning ? nil : r.summary.judged)
        }
        let waiting = roots.waiting
        if !waiting.isEmpty {
            for path in Set(waiting) {
                list.append(
                    RootStatus(
                        path: path, state: .scanning, files: 0, projects: 0, errors: 0, warnings: 0, infos: 0, lastChange: nil,
                        recrawls: 0, reason: "waiting to be scanned: the daemon is starting (roots are scanned one at a time)"))
            }
            list.sort { $0.path < $1.path }
        }
        var errors = modules.errors
        for r in roots.values { for e in r.summary.ruleErrors where !errors.contains(e) { errors.append(e) } }
        var result = StatusResult(
            roots: list, generation: generation, uptimeSeconds: (Date().timeIntervalSince(started) * 10).rounded() / 10,
            ruleErrors: errors, watches: watcher.watchCount, settleMilliseconds: configuration.settleMilliseconds,
            socket: configuration.socketPath)
        result.startedBy = configuration.startedBy
        result.log = configuration.log
        result.idleExitSeconds = configuration.idleExitSeconds > 0 ? configuration.idleExitSeconds : nil
        return result
    }

    /// Diagnostics, optionally of one root and/or under one path (absolute, or relative to the root).
    package func diagnostics(root: String?, path: String?, minimumSeverity: Severity = .info) throws(RPCError) -> DiagnosticsSnapshot {
        var selected = roots
        if let root {
            let r = FileSystem.absolutePath(root)
            guard let record = roots[r] else { throw .notFound("\(r) is not watched (watch/list shows the roots)") }
            selected = RootBook()
            selected.add(r, record)
        }
        var out: [Diagnostic] = []
        var matched = path == nil
        for (rootPath, record) in selected {
            var found = record.diagnostics.all
            if let path {
                // An absolute path selects the roots that contain it; a relative one applies to each root.
                let relative: String
                if path.hasPrefix("/") {
                    let abs = FileSystem.absolutePath(path)
                    if abs == rootPath {
                        relative = ""
                    } else if abs.hasPrefix(rootPath == "/" ? "/" : rootPath + "/") {
                        relative = String(abs.dropFirst(rootPath == "/" ? 1 : rootPath.count + 1))
                    } else {
                        continue
                    }
                } else {
                    guard let r = RelativePath.normalize(path) else { throw .invalidParams("path \(path) leaves the root") }
                    relative = r
                }
                matched = true
                let scope = DiagnosticScope(relativePath: relative)
                found = found.filter { d in
                    scope.contains(d) || (EngineRules.projectRuleIDs.contains(d.rule) && RelativePath.isWithin(scope.path, d.project))
                }
            }
            out += found.filter { $0.severity >= minimumSeverity }
        }
        if !matched, let path {
            throw .notFound("\(path) is not under a watched root (watch/list shows the roots; watch/add adds one)")
        }
        out.sort(by: Diagnostic.stableOrder)
        return DiagnosticsSnapshot(generation: generation, diagnostics: out)
    }

    package func subscribe(minimumSeverity: Severity, sink: any NotificationSink) -> (UInt64, DiagnosticsSnapshot) {
        let id = subscribers.add(minimumSeverity: minimumSeverity, sink: sink)
        let snapshot =
            (try? diagnostics(root: nil, path: nil, minimumSeverity: minimumSeverity))
            ?? DiagnosticsSnapshot(generation: generation, diagnostics: [])
        return (id, snapshot)
    }

    package func unsubscribe(_ id: UInt64) -> Bool { subscribers.remove(id) }

    /// Current snapshot for a subscriber whose queue overflowed (nil once it has unsubscribed).
    package func resyncSnapshot(subscriber id: UInt64) -> DiagnosticsSnapshot? {
        guard let minimum = subscribers.minimumSeverity(of: id) else { return nil }
        return (try? diagnostics(root: nil, path: nil, minimumSeverity: minimum))
            ?? DiagnosticsSnapshot(generation: generation, diagnostics: [])
    }

    /// Returns once every change made before the call has been applied. A barrier file goes into
    /// the watcher's private folder (never into a watched root: read-only roots and roots other
    /// users write are fine, and nothing there can redirect the write); its event comes back
    /// through the same inotify queue after every event queued before it, and then the changes
    /// pending at that moment are applied. One barrier covers every root.
    package func sync(timeoutMilliseconds: Int) async throws(RPCError) -> GenerationResult {
        let id = barriers.nextID()
        let timeout = timeoutMilliseconds
        let seen = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            barriers.register(id, c)
            guard watcher.barrier(id) else {
                barriers.remove(id)?.resume(returning: false)
                return
            }
            Task {
                try? await Task.sleep(for: .milliseconds(timeout))
                self.expireBarrier(id)
            }
        }
        guard seen else {
            throw .timeout("sync timed out after \(timeoutMilliseconds) ms: the watcher did not confirm the barrier (is it running?)")
        }
        return GenerationResult(generation: generation)
    }

    func expireBarrier(_ id: UInt64) { barriers.remove(id)?.resume(returning: false) }

    /// Re-reads everything of one root (or all) from disk.
    package func recheck(root: String?) async throws(RPCError) -> GenerationResult {
        let targets: [String]
        if let root {
            let r = FileSystem.absolutePath(root)
            guard roots[r] != nil else { throw .notFound("\(r) is not watched") }
            targets = [r]
        } else {
            targets = roots.keys.sorted()
        }
        for r in targets { await runEngine(r, wholeRoot: true) { $0.fullScan() } }
        return GenerationResult(generation: generation)
    }

    package func rulesList() -> RulesListResult {
        var rules: [RulesListResult.Rule] = []
        for r in modules.current.rules {
            for info in r.reported {
                rules.append(
                    .init(id: info.id, severity: info.severity, code: info.code, kind: r.kindName, source: r.source, summary: info.summary))
            }
        }
        rules.sort { $0.id < $1.id }
        return RulesListResult(rules: rules, errors: modules.errors)
    }

    /// SIGHUP or a changed module file: reload the modules, re-run what depends on rules.
    package func reload(reason: String) async {
        notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
        logger.info("reloading rule modules (\(reason))")
        modules.reload()
        for error in modules.errors { reportModuleError(error) }
        let rules = modules.current
        for root in roots.keys.sorted() { await runEngine(root, wholeRoot: true) { $0.replaceRules(rules) } }
        publishStatus()
        notifier.notify("READY=1\nSTATUS=\(statusLine)")
    }
}
