import ReswatchProtocol

struct StatusMethod: MethodHandler {
    typealias Request = StatusRequest
    func handle(_ params: StatusRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> StatusRequest.Response {
        await connection.core.status()
    }
}
