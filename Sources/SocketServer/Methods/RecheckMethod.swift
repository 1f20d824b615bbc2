import ReswatchProtocol

/// `recheck {root?}` → `{generation}` after re-reading everything from disk.
struct RecheckMethod: MethodHandler {
    static let method = RPCMethod.recheck
    static let allowed: Set<String> = ["root"]
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        try await connection.core.recheck(root: try params.string("root"))
    }
}
