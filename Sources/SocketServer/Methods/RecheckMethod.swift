import ReswatchProtocol

struct RecheckMethod: MethodHandler {
    typealias Request = RecheckRequest
    func handle(_ params: RecheckRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> RecheckRequest.Response {
        try await connection.core.recheck(root: await connection.core.sentPath(params.root))
    }
}
