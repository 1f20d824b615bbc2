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

/// A request the daemon answers (`DaemonService.serve`): nothing of it is the connection's.
struct DaemonMethod<Request: ReswatchRequest>: MethodHandler {
    func handle(_ params: Request.Params, _ connection: ConnectionContext) async throws(RPCError) -> Request.Response {
        try await connection.daemon.serve(Request.self, params)
    }
}

/// The dispatch table of a server: the connection's own methods (ConnectionMethods.swift), and
/// every other declared request the daemon serves, handed to it as it is.
struct MethodTable: Sendable {
    /// What a connection answers itself: the handshake and its subscription.
    static let connectionMethods: [any MethodHandler] = [InitializeMethod(), SubscribeMethod(), UnsubscribeMethod()]

    let byName: [String: any MethodHandler]
    /// The methods served, in the order ReswatchRequests declares them: `initialize`'s
    /// capabilities and "Method not found"'s list.
    let methods: [String]

    init(daemon: any DaemonService) { self.init(served: daemon.servedMethods) }

    /// The table for a daemon that serves `served` (method names).
    init(served: Set<String>) {
        var byName: [String: any MethodHandler] = [:]
        for handler in Self.connectionMethods { byName[type(of: handler).method] = handler }
        for request in ReswatchRequests.all where byName[request.method] == nil && served.contains(request.method) {
            byName[request.method] = request.daemonMethod
        }
        self.byName = byName
        methods = ReswatchRequests.all.map { $0.method }.filter { byName[$0] != nil }
    }
}

extension ReswatchRequest {
    /// This request, handed to the daemon (a static member: no generic call opens the existential).
    static var daemonMethod: any MethodHandler { DaemonMethod<Self>() }
}
