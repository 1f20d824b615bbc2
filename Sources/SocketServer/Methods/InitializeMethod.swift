import ReswatchProtocol

struct InitializeMethod: MethodHandler {
    typealias Request = InitializeRequest
    func handle(_ params: InitializeRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> InitializeRequest.Response {
        InitializeResult(version: connection.core.version, methods: MethodTable.methods)
    }
}
