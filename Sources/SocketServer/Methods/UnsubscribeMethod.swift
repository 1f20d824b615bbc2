import ReswatchProtocol

struct UnsubscribeMethod: MethodHandler {
    typealias Request = UnsubscribeRequest
    func handle(_ params: UnsubscribeRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> UnsubscribeRequest.Response
    {
        guard let id = connection.sink.subscribe(nil) else {
            throw .invalidRequest("this connection is not subscribed")
        }
        _ = await connection.core.unsubscribe(id)
        return EmptyResult()
    }
}
