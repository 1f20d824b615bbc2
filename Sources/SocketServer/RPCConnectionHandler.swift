import Daemon
import Logging
import NIOCore
import ReswatchProtocol

/// One client connection: JSON-RPC requests in, responses and notifications out. Malformed input
/// of any kind gets an error reply and the connection carries on.
final class RPCConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: NIO confines every call of a handler to its channel's event loop.
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    let core: DaemonCore
    let logger: Logger
    let lineLimit: Int
    var connection: ConnectionContext?
    var inFlight = 0
    var inputClosed = false

    init(core: DaemonCore, logger: Logger, lineLimit: Int) {
        self.core = core
        self.logger = logger
        self.lineLimit = lineLimit
    }

    func channelActive(context: ChannelHandlerContext) {
        connection = ConnectionContext(core: core, sink: ConnectionSink(channel: context.channel, core: core))
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id = connection?.subscription.withLock({ $0 }) {
            let core = self.core
            Task { _ = await core.unsubscribe(id) }
        }
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { connection?.sink.writable() }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? ChannelEvent, e == .inputClosed {
            // The client half-closed (e.g. socat after its last line): answer, then close.
            inputClosed = true
            if inFlight == 0 { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let channel = context.channel
        switch frame {
        case .tooLong:
            write(RPCEncoder.error(id: .null, .lineTooLong(lineLimit)), to: channel)
        case .line(let line):
            switch RPCRequest.parse(line) {
            case .failure(let error):
                write(RPCEncoder.error(id: RPCRequest.bestEffortID(line), error), to: channel)
            case .success(let request):
                dispatch(request, channel: channel)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error: \(error)")
        context.close(promise: nil)
    }

    func dispatch(_ request: RPCRequest, channel: any Channel) {
        guard let handler = MethodTable.byName[request.method] else {
            if request.id != nil { write(RPCEncoder.error(id: request.id ?? .null, .methodNotFound(request.method)), to: channel) }
            return
        }
        guard let connection else { return }
        inFlight += 1
        let id = request.id
        let params = request.params
        let isSubscribe = request.method == RPCMethod.subscribe.rawValue
        let loop = channel.eventLoop
        Task {
            let reply: [UInt8]
            do throws(RPCError) {
                let typed = try Params(params, allowed: type(of: handler).allowed)
                let result = try await handler.handle(typed, connection)
                reply = RPCEncoder.response(id: id ?? .null, result: result)
            } catch {
                reply = RPCEncoder.error(id: id ?? .null, error)
            }
            loop.execute { [self] in
                inFlight -= 1
                // A notification (no id) gets no reply, as JSON-RPC says.
                if id != nil { write(reply, to: channel) }
                if isSubscribe { connection.sink.release() }
                if inputClosed && inFlight == 0 { channel.close(promise: nil) }
            }
        }
    }

    func write(_ bytes: [UInt8], to channel: any Channel) {
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }
}
