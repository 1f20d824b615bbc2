import ReswatchProtocol

struct DiagnosticsMethod: MethodHandler {
    typealias Request = DiagnosticsRequest
    func handle(_ params: DiagnosticsRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> DiagnosticsRequest.Response
    {
        let core = connection.core
        return try await core.diagnostics(
            root: await core.sentPath(params.root), path: await core.sentPath(params.path), minimumSeverity: params.minimumSeverity ?? .info
        )
    }
}
