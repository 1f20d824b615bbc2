import ReswatchProtocol

/// `rules/list` → every rule id in force, and module load errors.
struct RulesListMethod: MethodHandler {
    static let method = RPCMethod.rulesList
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        await connection.core.rulesList()
    }
}
