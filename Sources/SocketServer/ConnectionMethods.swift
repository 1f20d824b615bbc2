import ReswatchProtocol

/// `initialize`: the daemon's version and the methods this server answers.
struct InitializeMethod: MethodHandler {
    typealias Request = InitializeRequest
    func handle(_ params: InitializeRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> InitializeRequest.Response {
        InitializeResult(version: connection.daemon.version, methods: connection.methods)
    }
}

/// `subscribe`: this connection's subscription (one at a time: a second replaces the first); the
/// snapshot is the reply, and notifications wait until it is written.
struct SubscribeMethod: MethodHandler {
    typealias Request = SubscribeRequest
    func handle(_ params: SubscribeRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> SubscribeRequest.Response {
        let minimum = params.minimumSeverity ?? .info
        if let old = connection.sink.subscribe(nil) { _ = await connection.daemon.unsubscribe(old) }
        connection.sink.hold()
        let (id, snapshot) = await connection.daemon.subscribe(minimumSeverity: minimum, sink: connection.sink)
        connection.sink.subscribe(id)
        return snapshot
    }
}

/// `unsubscribe`: ends this connection's subscription.
struct UnsubscribeMethod: MethodHandler {
    typealias Request = UnsubscribeRequest
    func handle(_ params: UnsubscribeRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> UnsubscribeRequest.Response
    {
        guard let id = connection.sink.subscribe(nil) else {
            throw .invalidRequest("this connection is not subscribed")
        }
        _ = await connection.daemon.unsubscribe(id)
        return EmptyResult()
    }
}
