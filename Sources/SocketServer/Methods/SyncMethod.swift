import ReswatchProtocol

struct SyncMethod: MethodHandler {
    typealias Request = SyncRequest
    func handle(_ params: SyncRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> SyncRequest.Response {
        try await connection.core.sync(timeoutMilliseconds: params.timeoutMilliseconds ?? 10_000)
    }
}
