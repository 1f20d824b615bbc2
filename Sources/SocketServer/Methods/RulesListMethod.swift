import ReswatchProtocol

struct RulesListMethod: MethodHandler {
    typealias Request = RulesListRequest
    func handle(_ params: RulesListRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> RulesListRequest.Response {
        await connection.core.rulesList()
    }
}
