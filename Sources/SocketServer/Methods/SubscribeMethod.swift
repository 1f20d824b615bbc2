import ReswatchProtocol

/// `subscribe {min_severity?}` → snapshot; then `diagnostics/changed` and `status/changed`.
struct SubscribeMethod: MethodHandler {
    static let method = RPCMethod.subscribe
    static let allowed: Set<String> = ["min_severity"]
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        let minimum = try params.severity("min_severity") ?? .info
        if let old = connection.sink.subscribe(nil) { _ = await connection.core.unsubscribe(old) }
        connection.sink.hold()
        let (id, snapshot) = await connection.core.subscribe(minimumSeverity: minimum, sink: connection.sink)
        connection.sink.subscribe(id)
        return snapshot
    }
}
