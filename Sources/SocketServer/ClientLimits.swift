import NIOCore
import ReswatchProtocol
import Synchronization

/// What one client may cost the daemon. Every bound is per connection except `maxClients`.
package struct ClientLimits: Sendable {
    /// Connections served at once; one more gets an error reply and is closed.
    package var maxClients = 256
    /// Bytes of replies and notifications waiting to be written before the connection counts as
    /// not reading: no further request is read from it, notifications are dropped for a resync.
    package var queueBytes = 1 << 20
    /// Requests of one connection being worked on at once; further lines wait unread in the socket.
    package var maxInFlight = 16
    /// Idle (no request, nothing in flight, no subscription) or not reading its replies this long: closed.
    package var idleTimeout = TimeAmount.seconds(600)

    package init() {}

    package init(maxClients: Int, queueBytes: Int, idleTimeoutSeconds: Int) {
        self.maxClients = maxClients
        self.queueBytes = queueBytes
        self.idleTimeout = .seconds(Int64(idleTimeoutSeconds))
    }
}

/// Open connections, counted across event loops; and refusals, so that a flood of connections
/// past `maxClients` is logged as a count every few seconds, not a line per connection.
final class ClientCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let refusals = Mutex<(unlogged: Int, lastLogged: ContinuousClock.Instant?)>((0, nil))

    /// Counts a refused connection. Returns how many refusals to log now (this one and those not
    /// logged yet) at most once per `interval`, else nil.
    func refused(now: ContinuousClock.Instant = .now, interval: Duration = .seconds(10)) -> Int? {
        refusals.withLock { state in
            state.unlogged += 1
            if let last = state.lastLogged, now - last < interval { return nil }
            defer { state = (0, now) }
            return state.unlogged
        }
    }

    /// Counts a new connection; returns the number open including it.
    func opened() -> Int { count.add(1, ordering: .relaxed).newValue }
    func closed() { count.subtract(1, ordering: .relaxed) }
}

/// Serves a connection past `maxClients`: one error reply, then close.
final class RefuseHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func channelActive(context: ChannelHandlerContext) {
        let line = RPCEncoder.error(id: .null, .failed("too many clients: \(limit) connections are open (max-clients); try again later"))
        let channel = context.channel
        channel.writeAndFlush(channel.allocator.buffer(bytes: line)).whenComplete { _ in channel.close(promise: nil) }
    }
}
