import ReswatchProtocol

struct MetricsMethod: MethodHandler {
    typealias Request = MetricsRequest
    func handle(_ params: MetricsRequest.Params, _ connection: ConnectionContext) async throws(RPCError) -> MetricsRequest.Response {
        MetricsResult(text: await connection.core.metricsText())
    }
}
