import ReswatchProtocol

/// `watch/add {path}` → `{roots}` after the initial scan of the new root.
struct WatchAddMethod: MethodHandler {
    static let method = RPCMethod.watchAdd
    static let allowed: Set<String> = ["path"]
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        WatchListResult(roots: try await connection.core.addRoot(try params.requiredString("path")))
    }
}
