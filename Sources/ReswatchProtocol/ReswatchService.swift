/// What answers the protocol's requests, typed: the daemon itself in-process (`DaemonCore`),
/// behind the socket server, or a test's fake. The socket server decodes a request, hands it to
/// `serve` and encodes what comes back; it knows no method of the daemon by name.
package protocol ReswatchService: Sendable {
    func serve<R: ReswatchRequest>(_ request: R.Type, _ params: R.Params) async throws(RPCError) -> R.Response
    /// The methods `serve` answers, by wire name.
    var servedMethods: Set<String> { get }
}
