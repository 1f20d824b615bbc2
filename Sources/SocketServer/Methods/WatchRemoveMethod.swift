import ReswatchProtocol

/// `watch/remove {path}` → `{roots}`; its diagnostics are removed (and notified).
struct WatchRemoveMethod: MethodHandler {
    static let method = RPCMethod.watchRemove
    static let allowed: Set<String> = ["path"]
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        WatchListResult(roots: try await connection.core.removeRoot(try params.requiredString("path")))
    }
}
