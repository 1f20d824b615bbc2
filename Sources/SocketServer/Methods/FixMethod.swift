import ReswatchProtocol

struct FixMethod: MethodHandler {
    typealias Request = FixRequest
    func handle(_ params: FixRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> FixRequest.Response {
        try await connection.core.fix(params)
    }
}
