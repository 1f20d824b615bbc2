import Foundation
import ReswatchProtocol
import RuleEngine

/// What the socket methods ask of the core.
extension DaemonCore {
    public func status() -> StatusResult {
        let list = roots.keys.sorted().map { path -> RootStatus in
            let r = roots[path]!
            let counts = r.engine.severityCounts
            return RootStatus(
                path: path, state: r.state, files: r.engine.fileCount, projects: r.engine.projectContexts.count,
                errors: counts[.error] ?? 0, warnings: counts[.warning] ?? 0, infos: counts[.info] ?? 0,
                lastChange: r.lastChange.map { EventLog.timestamp($0) }, recrawls: r.recrawls, reason: r.reason)
        }
        var errors = modules.errors
        for r in roots.values { for e in r.engine.ruleErrors where !errors.contains(e) { errors.append(e) } }
        return StatusResult(
            roots: list, generation: generation, uptimeSeconds: (Date().timeIntervalSince(started) * 10).rounded() / 10,
            ruleErrors: errors, watches: watcher.watchCount, settleMilliseconds: configuration.settleMilliseconds,
            socket: configuration.socketPath)
    }

    /// Diagnostics, optionally of one root and/or under one path (absolute, or relative to the root).
    public func diagnostics(root: String?, path: String?, minimumSeverity: Severity = .info) throws(RPCError) -> DiagnosticsSnapshot {
        var selected = roots
        if let root {
            let r = FileSystem.absolutePath(root)
            guard let record = roots[r] else { throw .notFound("\(r) is not watched (watch/list shows the roots)") }
            selected = [r: record]
        }
        var out: [Diagnostic] = []
        var matched = path == nil
        for (rootPath, record) in selected {
            var found = record.engine.diagnostics
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

    public func subscribe(minimumSeverity: Severity, sink: any NotificationSink) -> (UInt64, DiagnosticsSnapshot) {
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = Subscriber(minimumSeverity: minimumSeverity, sink: sink)
        let snapshot =
            (try? diagnostics(root: nil, path: nil, minimumSeverity: minimumSeverity))
            ?? DiagnosticsSnapshot(generation: generation, diagnostics: [])
        return (id, snapshot)
    }

    public func unsubscribe(_ id: UInt64) -> Bool { subscribers.removeValue(forKey: id) != nil }

    /// Current snapshot for a subscriber whose queue overflowed.
    public func resyncSnapshot(minimumSeverity: Severity) -> DiagnosticsSnapshot {
        (try? diagnostics(root: nil, path: nil, minimumSeverity: minimumSeverity))
            ?? DiagnosticsSnapshot(generation: generation, diagnostics: [])
    }

    /// Writes a cookie file in every root and returns once each has come back through inotify and
    /// been processed: everything written before the call is then reflected in the diagnostics.
    public func sync(timeoutMilliseconds: Int) async throws(RPCError) -> GenerationResult {
        var cookies: [String] = []
        for root in roots.keys.sorted() {
            cookieSequence += 1
            let cookie = "\(root)/\(ResourceTree.cookiePrefix)\(getpid())-\(cookieSequence)"
            let fd = open(cookie, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                throw .failed("cannot write the sync cookie in \(root): \(reason)")
            }
            close(fd)
            cookies.append(cookie)
        }
        for cookie in cookies {
            let timeout = timeoutMilliseconds
            let seen = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
                cookieWaiters[cookie, default: []].append(c)
                Task {
                    try? await Task.sleep(for: .milliseconds(timeout))
                    self.expireCookie(cookie)
                }
            }
            if !seen {
                unlink(cookie)
                throw .timeout(
                    "sync timed out after \(timeoutMilliseconds) ms: the change to \(cookie) was not seen (is the root still watched?)")
            }
        }
        return GenerationResult(generation: generation)
    }

    func expireCookie(_ cookie: String) {
        guard let waiters = cookieWaiters.removeValue(forKey: cookie) else { return }
        for w in waiters { w.resume(returning: false) }
    }

    /// Re-reads everything of one root (or all) from disk.
    public func recheck(root: String?) throws(RPCError) -> GenerationResult {
        let targets: [String]
        if let root {
            let r = FileSystem.absolutePath(root)
            guard roots[r] != nil else { throw .notFound("\(r) is not watched") }
            targets = [r]
        } else {
            targets = roots.keys.sorted()
        }
        for r in targets { publish(root: r, roots[r]!.engine.fullScan()) }
        return GenerationResult(generation: generation)
    }

    public func rulesList() -> RulesListResult {
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
    public func reload(reason: String) {
        notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
        logger.info("reloading rule modules (\(reason))")
        modules.reload()
        for error in modules.errors { reportModuleError(error) }
        for root in roots.keys.sorted() { publish(root: root, roots[root]!.engine.replaceRules(modules.current)) }
        publishStatus()
        notifier.notify("READY=1\nSTATUS=\(statusLine)")
    }
}
