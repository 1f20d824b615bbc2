import ReswatchProtocol

struct WatchRemoveMethod: MethodHandler {
    typealias Request = WatchRemoveRequest
    func handle(_ params: WatchRemoveRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> WatchRemoveRequest.Response
    {
        WatchListResult(roots: try await connection.core.removeRoot(await connection.core.sentPath(params.path)))
    }
}
