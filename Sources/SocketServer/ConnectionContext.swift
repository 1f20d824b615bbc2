import Daemon
import NIOCore
import ReswatchProtocol
import RuleEngine
import Synchronization

/// Per-connection state shared by the method handlers (subscription) and the NIO handler.
final class ConnectionContext: Sendable {
    let core: DaemonCore
    let sink: ConnectionSink
    let subscription = Mutex<UInt64?>(nil)

    init(core: DaemonCore, sink: ConnectionSink) {
        self.core = core
        self.sink = sink
    }
}

/// Delivers notifications to one connection without ever blocking the daemon: writes happen on the
/// connection's event loop; while the peer does not read (NIO's high water mark is passed) they
/// are dropped, and once it reads again one `resync` with the current snapshot replaces them.
final class ConnectionSink: NotificationSink, Sendable {
    let channel: any Channel
    struct State {
        var minimumSeverity: Severity = .info
        var needsResync = false
        var resyncInFlight = false
        var dropped = 0
        /// Until the subscribe reply is written, notifications wait here (so the snapshot comes first).
        var holding = false
        var held: [[UInt8]] = []
    }
    static let heldLimit = 1024
    let state = Mutex(State())
    let core: DaemonCore

    init(channel: any Channel, core: DaemonCore) {
        self.channel = channel
        self.core = core
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
            if !drop { channel.writeAndFlush(channel.allocator.buffer(bytes: line), promise: nil) }
        }
    }

    /// Holds notifications until `release()` (called once the subscribe reply is written).
    func hold(minimumSeverity: Severity) {
        state.withLock {
            $0.holding = true
            $0.minimumSeverity = minimumSeverity
        }
    }

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
        let (needed, minimum) = state.withLock { s -> (Bool, Severity) in
            guard s.needsResync, !s.resyncInFlight else { return (false, s.minimumSeverity) }
            s.resyncInFlight = true
            return (true, s.minimumSeverity)
        }
        guard needed else { return }
        let channel = self.channel
        let core = self.core
        Task {
            let snapshot = await core.resyncSnapshot(minimumSeverity: minimum)
            let line = RPCEncoder.notification(.resync, snapshot)
            channel.eventLoop.execute { [self] in
                state.withLock {
                    $0.needsResync = false
                    $0.resyncInFlight = false
                    $0.dropped = 0
                }
                channel.writeAndFlush(channel.allocator.buffer(bytes: line), promise: nil)
            }
        }
    }
}
