import ReswatchProtocol

/// `subscribe {min_severity?}` → snapshot; then `diagnostics/changed` and `status/changed`.
struct SubscribeMethod: MethodHandler {
    static let method = RPCMethod.subscribe
    static let allowed: Set<String> = ["min_severity"]
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable {
        let minimum = try params.severity("min_severity") ?? .info
        if let old = connection.subscription.withLock({ $0 }) { _ = await connection.core.unsubscribe(old) }
        connection.sink.hold(minimumSeverity: minimum)
        let (id, snapshot) = await connection.core.subscribe(minimumSeverity: minimum, sink: connection.sink)
        connection.subscription.withLock { $0 = id }
        return snapshot
    }
}
