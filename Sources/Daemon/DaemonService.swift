import Findings
import ReswatchProtocol

/// The daemon as its socket server sees it: the protocol's requests (`serve`), and what a
/// connection's subscription needs of the core's subscriber hub. `DaemonCore` is the daemon;
/// the connection handler's tests use a fake.
package protocol DaemonService: ReswatchService {
    /// The daemon's version (`initialize`).
    var version: String { get }
    /// Adds a subscriber; the snapshot it starts from.
    func subscribe(minimumSeverity: Severity, sink: any NotificationSink) async -> (UInt64, DiagnosticsSnapshot)
    /// Removes a subscriber; false if it was not one.
    func unsubscribe(_ id: UInt64) async -> Bool
    /// A subscriber's current snapshot after notifications were dropped (nil: not subscribed).
    func resyncSnapshot(subscriber id: UInt64) async -> DiagnosticsSnapshot?
    /// Bytes written to a client (the daemon gives freed pages back after large writes).
    func wrote(bytes: Int)
}

/// One method of the daemon: its request type and what the core runs for it.
package struct DaemonRoute<R: ReswatchRequest>: AnyDaemonRoute {
    /// What the core runs. Its errors are `RPCError`s (the core's methods throw only those; the
    /// closure's type cannot say so without spelling it out on every line).
    let run: @Sendable (DaemonCore, R.Params) async throws -> R.Response

    package init(_ request: R.Type, _ run: @escaping @Sendable (DaemonCore, R.Params) async throws -> R.Response) {
        self.run = run
    }

    package var method: String { R.method }
}

/// A route of any request type (the table holds them all).
package protocol AnyDaemonRoute: Sendable {
    var method: String { get }
}

extension DaemonCore: DaemonService {
    /// The daemon's methods, one line each (a new method: its request in
    /// ReswatchProtocol/Requests.swift, a line here, and the core's code it runs). `initialize`,
    /// `subscribe` and `unsubscribe` are the connection's own (SocketServer's ConnectionMethods).
    static let routes: [String: any AnyDaemonRoute] = Dictionary(
        uniqueKeysWithValues: ([
            DaemonRoute(StatusRequest.self) { core, _ in await core.status() },
            DaemonRoute(DiagnosticsRequest.self) { core, p in
                try await core.diagnostics(
                    root: core.sentPath(p.root), path: core.sentPath(p.path), minimumSeverity: p.minimumSeverity ?? .info)
            },
            DaemonRoute(SyncRequest.self) { core, p in try await core.sync(timeoutMilliseconds: p.timeoutMilliseconds ?? 10_000) },
            DaemonRoute(RecheckRequest.self) { core, p in try await core.recheck(root: core.sentPath(p.root)) },
            DaemonRoute(ShutdownRequest.self) { core, _ in core.shutdownSoon() },
            DaemonRoute(WatchAddRequest.self) { core, p in WatchListResult(roots: try await core.addRoot(core.sentPath(p.path))) },
            DaemonRoute(WatchRemoveRequest.self) { core, p in WatchListResult(roots: try await core.removeRoot(core.sentPath(p.path))) },
            DaemonRoute(WatchListRequest.self) { core, _ in WatchListResult(roots: await core.rootPaths) },
            DaemonRoute(RulesListRequest.self) { core, _ in await core.rulesList() },
            DaemonRoute(MetricsRequest.self) { core, _ in MetricsResult(text: await core.metricsText()) },
            DaemonRoute(FixRequest.self) { core, p in try await core.fix(p) },
        ] as [any AnyDaemonRoute]).map { ($0.method, $0) })

    package nonisolated var servedMethods: Set<String> { Self.served }
    /// The methods every core serves (its routes).
    package static var served: Set<String> { Set(routes.keys) }

    package nonisolated func serve<R: ReswatchRequest>(_ request: R.Type, _ params: R.Params) async throws(RPCError) -> R.Response {
        guard let route = Self.routes[R.method] as? DaemonRoute<R> else {
            throw .methodNotFound(R.method, known: Self.routes.keys.sorted())
        }
        do { return try await route.run(self, params) } catch let error as RPCError { throw error } catch {
            throw .internalError("\(R.method): \(error)")
        }
    }

    package nonisolated func wrote(bytes: Int) { pages.wrote(bytes: bytes) }

    /// `shutdown`: answered first, then the daemon stops (the reply must go out before it does).
    nonisolated func shutdownSoon() -> EmptyResult {
        Task {
            try? await Task.sleep(for: .milliseconds(50))
            await requestShutdown()
        }
        return EmptyResult()
    }
}
