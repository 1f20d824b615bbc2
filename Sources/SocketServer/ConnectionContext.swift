import Daemon
import NIOCore
import ReswatchProtocol
import Synchronization

/// Per-connection state shared by the method handlers and the NIO handler. The subscription
/// (its id) is the sink's; its minimum severity is kept by the daemon's subscriber hub alone.
final class ConnectionContext: Sendable {
    let daemon: any DaemonService
    let sink: ConnectionSink
    /// The methods this server answers (`initialize` lists them).
    let methods: [String]

    init(daemon: any DaemonService, sink: ConnectionSink, methods: [String]) {
        self.daemon = daemon
        self.sink = sink
        self.methods = methods
    }
}

/// Delivers notifications to one connection without ever blocking the daemon: writes happen on the
/// connection's event loop; while the peer does not read (NIO's high water mark is passed) they
/// are dropped, and once it reads again one `resync` with the current snapshot replaces them.
final class ConnectionSink: NotificationSink, Sendable {
    let channel: any Channel
    struct State {
        /// The hub's id of this connection's subscription.
        var subscriber: UInt64?
        var needsResync = false
        var resyncInFlight = false
        var dropped = 0
        /// Until the subscribe reply is written, notifications wait here (so the snapshot comes first).
        var holding = false
        var held: [[UInt8]] = []
    }
    static let heldLimit = 1024
    let state = Mutex(State())
    let daemon: any DaemonService

    init(channel: any Channel, daemon: any DaemonService) {
        self.channel = channel
        self.daemon = daemon
    }

    func deliver(_ line: [UInt8]) {
        let channel = self.channel
        channel.eventLoop.execute { [self] in
            guard channel.isActive else { return }
            let drop = state.withLock { s -> Bool in
                if s.holding && !s.needsResync {
                    if s.held.count < Self.heldLimit { s.held.append(line) } else { s.needsResync = true; s.held = [] }
                    return true
                }
                if s.needsResync || !channel.isWritable {
                    s.needsResync = true
                    s.dropped += 1
                    return true
                }
                return false
            }
            if !drop {
                channel.writeAndFlush(channel.allocator.buffer(bytes: line), promise: nil)
                daemon.wrote(bytes: line.count)
            }
        }
    }

    /// Holds notifications until `release()` (called once the subscribe reply is written).
    func hold() { state.withLock { $0.holding = true } }

    /// The subscription now in force (nil: none); returns the one it replaces.
    @discardableResult
    func subscribe(_ id: UInt64?) -> UInt64? {
        state.withLock { s in
            defer { s.subscriber = id }
            return s.subscriber
        }
    }

    var subscriber: UInt64? { state.withLock { $0.subscriber } }

    /// On the event loop, after the subscribe reply: writes what was held.
    func release() {
        let held = state.withLock { s -> [[UInt8]] in
            s.holding = false
            defer { s.held = [] }
            return s.needsResync ? [] : s.held
        }
        for line in held { channel.write(channel.allocator.buffer(bytes: line), promise: nil) }
        channel.flush()
        if state.withLock({ $0.needsResync }) { writable() }
    }

    /// Called on the event loop when the channel becomes writable again.
    func writable() {
        let subscriber = state.withLock { s -> UInt64? in
            guard s.needsResync, !s.resyncInFlight, let id = s.subscriber else { return nil }
            s.resyncInFlight = true
            return id
        }
        guard let subscriber else { return }
        let channel = self.channel
        let daemon = self.daemon
        Task {
            let snapshot = await daemon.resyncSnapshot(subscriber: subscriber)
            channel.eventLoop.execute { [self] in
                state.withLock {
                    $0.needsResync = false
                    $0.resyncInFlight = false
                    $0.dropped = 0
                }
                // Unsubscribed meanwhile: nothing to resync.
                guard let snapshot else { return }
                let line = RPCEncoder.notification(.resync, snapshot)
                channel.writeAndFlush(channel.allocator.buffer(bytes: line), promise: nil)
                daemon.wrote(bytes: line.count)
            }
        }
    }
}
