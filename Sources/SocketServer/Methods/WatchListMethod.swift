import ReswatchProtocol

/// `watch/list` → `{roots}`.
struct WatchListMethod: MethodHandler {
    static let method = RPCMethod.watchList
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        WatchListResult(roots: await connection.core.rootPaths)
    }
}
