import Daemon
import Logging
import NIOCore
import ReswatchProtocol
import SystemCalls

/// One client connection: JSON-RPC requests in, responses and notifications out. Malformed input
/// of any kind gets an error reply and the connection carries on.
///
/// Bounded per client: at most `maxInFlight` requests are worked on at once, and while that many
/// are, or while its replies wait unread (past the write buffer's high water mark), nothing more is
/// read from the socket: a client that pipelines without reading fills its own socket buffer, not
/// the daemon's memory. Lines of one read that cannot be started yet wait in `queued` (at most one
/// read's worth). A connection idle for `idleTimeout` (no request, nothing in flight, no
/// subscription), or not reading its replies that long, is closed.
final class RPCConnectionHandler: ChannelDuplexHandler, @unchecked Sendable {
    // @unchecked: NIO confines every call of a handler to its channel's event loop.
    typealias InboundIn = Frame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let daemon: any DaemonService
    let table: MethodTable
    let logger: Logger
    let lineLimit: Int
    let limits: ClientLimits
    /// Who is at the other end (SO_PEERCRED) and what it may do.
    let peer: PeerCredentials
    let role: Role?
    let policy: AccessPolicy
    var connection: ConnectionContext?
    var context: ChannelHandlerContext?
    var inFlight = 0
    var inputClosed = false
    var queued = CircularBuffer<Frame>()
    /// A read the pipeline asked for while reading was paused.
    var readHeld = false
    var idleCheck: Scheduled<Void>?
    var lastActivity = NIODeadline.now()
    /// Since when the connection has not been writable (its replies wait unread).
    var unwritableSince: NIODeadline?

    init(
        daemon: any DaemonService, table: MethodTable, logger: Logger, lineLimit: Int, limits: ClientLimits, peer: PeerCredentials,
        policy: AccessPolicy = AccessPolicy()
    ) {
        self.daemon = daemon
        self.table = table
        self.logger = logger
        self.lineLimit = lineLimit
        self.limits = limits
        self.peer = peer
        self.policy = policy
        self.role = policy.role(of: peer)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        connection = ConnectionContext(
            daemon: daemon, sink: ConnectionSink(channel: context.channel, daemon: daemon), methods: table.methods)
        lastActivity = .now()
        scheduleIdleCheck(context.eventLoop)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        queued.removeAll()
        if let id = connection?.sink.subscriber {
            let daemon = self.daemon
            Task { _ = await daemon.unsubscribe(id) }
        }
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            unwritableSince = nil
            connection?.sink.writable()
            drain()
        } else if unwritableSince == nil {
            unwritableSince = .now()
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? ChannelEvent, e == .inputClosed {
            // The client half-closed (e.g. socat after its last line): answer, then close.
            inputClosed = true
            closeIfDone()
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        queued.append(unwrapInboundIn(data))
        lastActivity = .now()
        drain()
    }

    /// Reading from the socket: only while this connection may start more work.
    func read(context: ChannelHandlerContext) {
        if mayRead(context.channel) { context.read() } else { readHeld = true }
    }

    func mayRead(_ channel: any Channel) -> Bool { queued.isEmpty && inFlight < limits.maxInFlight && channel.isWritable }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error: \(error)")
        context.close(promise: nil)
    }

    /// Starts queued lines while there is room, then resumes reading if it was held.
    func drain() {
        guard let context else { return }
        let channel = context.channel
        while !queued.isEmpty, inFlight < limits.maxInFlight, channel.isWritable {
            handle(queued.removeFirst(), channel: channel)
        }
        if readHeld && mayRead(channel) {
            readHeld = false
            context.read()
        }
        closeIfDone()
    }

    func closeIfDone() {
        if inputClosed && inFlight == 0 && queued.isEmpty { context?.close(promise: nil) }
    }

    func handle(_ frame: Frame, channel: any Channel) {
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

    func dispatch(_ request: RPCRequest, channel: any Channel) {
        guard let handler = table.byName[request.method] else {
            if request.id != nil {
                write(RPCEncoder.error(id: request.id ?? .null, .methodNotFound(request.method, known: table.methods)), to: channel)
            }
            return
        }
        guard let connection else { return }
        let needs = type(of: handler).role
        guard let role, role >= needs else {
            if request.id != nil {
                write(
                    RPCEncoder.error(id: request.id ?? .null, policy.refusal(method: request.method, needs: needs, peer: peer, role: role)),
                    to: channel)
            }
            return
        }
        inFlight += 1
        let id = request.id
        let params = request.params
        let isSubscribe = request.method == SubscribeRequest.method
        let loop = channel.eventLoop
        Task {
            let reply: [UInt8]
            do throws(RPCError) {
                reply = try await handler.reply(id: id ?? .null, params: params, connection)
            } catch {
                reply = RPCEncoder.error(id: id ?? .null, error)
            }
            loop.execute { [self] in
                inFlight -= 1
                lastActivity = .now()
                // A notification (no id) gets no reply, as JSON-RPC says.
                if id != nil { write(reply, to: channel) }
                if isSubscribe { connection.sink.release() }
                drain()
            }
        }
    }

    func write(_ bytes: [UInt8], to channel: any Channel) {
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
        daemon.wrote(bytes: bytes.count)
    }

    // MARK: - idle connections

    func scheduleIdleCheck(_ loop: any EventLoop) {
        let period = TimeAmount.nanoseconds(max(limits.idleTimeout.nanoseconds / 4, 100_000_000))
        idleCheck = loop.scheduleTask(in: period) { [self] in
            checkIdle()
            scheduleIdleCheck(loop)
        }
    }

    func checkIdle() {
        guard let context, context.channel.isActive else { return }
        let now = NIODeadline.now()
        if let since = unwritableSince, now - since >= limits.idleTimeout {
            logger.info("closing a client that has not read its replies for \(limits.idleTimeout.nanoseconds / 1_000_000_000) s")
            context.close(promise: nil)
            return
        }
        let subscribed = connection?.sink.subscriber != nil
        if !subscribed, inFlight == 0, queued.isEmpty, now - lastActivity >= limits.idleTimeout {
            logger.debug("closing an idle client")
            context.close(promise: nil)
        }
    }
}
