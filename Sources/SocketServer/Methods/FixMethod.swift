import ReswatchProtocol

struct FixMethod: MethodHandler {
    typealias Request = FixRequest
    func handle(_ params: FixRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> FixRequest.Response {
        var params = params
        params.path = await connection.core.sentPath(params.path)
        return try await connection.core.fix(params)
    }
}
