import ReswatchProtocol

/// `diagnostics {root?, path?, min_severity?}` → `{generation, diagnostics}`.
struct DiagnosticsMethod: MethodHandler {
    static let method = RPCMethod.diagnostics
    static let allowed: Set<String> = ["root", "path", "min_severity"]
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        let root = try params.string("root")
        let path = try params.string("path")
        let minimum = try params.severity("min_severity") ?? .info
        return try await connection.core.diagnostics(root: root, path: path, minimumSeverity: minimum)
    }
}
