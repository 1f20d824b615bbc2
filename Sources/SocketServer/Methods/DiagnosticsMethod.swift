import ReswatchProtocol

struct DiagnosticsMethod: MethodHandler {
    typealias Request = DiagnosticsRequest
    func handle(_ params: DiagnosticsRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> DiagnosticsRequest.Response
    {
        try await connection.core.diagnostics(root: params.root, path: params.path, minimumSeverity: params.minimumSeverity ?? .info)
    }
}
