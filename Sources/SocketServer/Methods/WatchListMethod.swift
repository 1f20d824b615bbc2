import ReswatchProtocol

struct WatchListMethod: MethodHandler {
    typealias Request = WatchListRequest
    func handle(_ params: WatchListRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> WatchListRequest.Response {
        WatchListResult(roots: await connection.core.rootPaths)
    }
}
