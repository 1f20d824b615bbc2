import ReswatchProtocol

/// `shutdown` → `{}`, then a graceful shutdown (as SIGTERM).
struct ShutdownMethod: MethodHandler {
    static let method = RPCMethod.shutdown
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        let core = connection.core
        Task {
            try? await Task.sleep(for: .milliseconds(50))  // let the reply go out first
            await core.requestShutdown()
        }
        return EmptyResult()
    }
}
