import Daemon
import ReswatchProtocol

/// The server's side of one request of the protocol: typed params in, typed response out. The
/// method name, params and response type come from the request (ReswatchProtocol/Requests.swift).
protocol MethodHandler: Sendable {
    associatedtype Request: ReswatchRequest
    func handle(_ params: Request.Params, _ connection: ConnectionContext) async throws(RPCError) -> Request.Response
}

extension MethodHandler {
    static var method: String { Request.method }
    static var role: Role { Request.role }

    /// Reads the raw params, handles them and encodes the reply line.
    func reply(id: JSONValue, params: JSONValue?, _ connection: ConnectionContext) async throws(RPCError) -> [UInt8] {
        let typed = try ParamReader.read(Request.Params.self, from: params)
        return RPCEncoder.response(id: id, result: try await handle(typed, connection))
    }
}

/// The dispatch table: one handler per file in Methods/.
enum MethodTable {
    static let handlers: [any MethodHandler] = [
        InitializeMethod(), StatusMethod(), DiagnosticsMethod(), SubscribeMethod(), UnsubscribeMethod(), SyncMethod(),
        WatchAddMethod(), WatchRemoveMethod(), WatchListMethod(), RecheckMethod(), RulesListMethod(), ShutdownMethod(), MetricsMethod(),
        FixMethod(),
    ]
    static let byName: [String: any MethodHandler] = Dictionary(uniqueKeysWithValues: handlers.map { (type(of: $0).method, $0) })
    /// The methods served, in table order: `initialize`'s capabilities and "Method not found"'s list.
    static let methods: [String] = handlers.map { type(of: $0).method }
}
