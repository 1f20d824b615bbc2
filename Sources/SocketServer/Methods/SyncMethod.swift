import ReswatchProtocol

/// `sync {timeout_ms?}` → `{generation}` once every change made before the call is processed.
struct SyncMethod: MethodHandler {
    static let method = RPCMethod.sync
    static let allowed: Set<String> = ["timeout_ms"]
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        let timeout = try params.int("timeout_ms", range: 1...600_000) ?? 10_000
        return try await connection.core.sync(timeoutMilliseconds: timeout)
    }
}
