import ReswatchProtocol

/// `unsubscribe` → `{}`; no more notifications on this connection.
struct UnsubscribeMethod: MethodHandler {
    static let method = RPCMethod.unsubscribe
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        guard let id = connection.sink.subscribe(nil) else {
            throw .invalidRequest("this connection is not subscribed")
        }
        _ = await connection.core.unsubscribe(id)
        return EmptyResult()
    }
}
