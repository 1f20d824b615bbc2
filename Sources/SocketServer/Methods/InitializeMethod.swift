import ReswatchProtocol

/// `initialize` → `{server: {name, version}, protocol: 1, capabilities: [...]}`.
struct InitializeMethod: MethodHandler {
    static let method = RPCMethod.initialize
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        InitializeResult(version: connection.core.version)
    }
}
