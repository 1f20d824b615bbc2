import ReswatchProtocol

struct SubscribeMethod: MethodHandler {
    typealias Request = SubscribeRequest
    func handle(_ params: SubscribeRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> SubscribeRequest.Response {
        let minimum = params.minimumSeverity ?? .info
        if let old = connection.sink.subscribe(nil) { _ = await connection.core.unsubscribe(old) }
        connection.sink.hold()
        let (id, snapshot) = await connection.core.subscribe(minimumSeverity: minimum, sink: connection.sink)
        connection.sink.subscribe(id)
        return snapshot
    }
}
