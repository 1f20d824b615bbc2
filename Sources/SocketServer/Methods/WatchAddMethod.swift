import ReswatchProtocol

struct WatchAddMethod: MethodHandler {
    typealias Request = WatchAddRequest
    func handle(_ params: WatchAddRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> WatchAddRequest.Response {
        WatchListResult(roots: try await connection.core.addRoot(await connection.core.sentPath(params.path)))
    }
}
