import ReswatchProtocol

/// `status` → roots with state and counts, generation, uptime, rule-module errors.
struct StatusMethod: MethodHandler {
    static let method = RPCMethod.status
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        await connection.core.status()
    }
}
