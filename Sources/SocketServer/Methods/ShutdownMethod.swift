import ReswatchProtocol

struct ShutdownMethod: MethodHandler {
    typealias Request = ShutdownRequest
    func handle(_ params: ShutdownRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> ShutdownRequest.Response {
        let core = connection.core
        Task {
            try? await Task.sleep(for: .milliseconds(50))  // let the reply go out first
            await core.requestShutdown()
        }
        return EmptyResult()
    }
}
