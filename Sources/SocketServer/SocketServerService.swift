import Daemon
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SystemCalls

/// The Unix-socket server (SwiftNIO). Prepares a private socket directory, refuses to start when
/// another daemon answers, serves until graceful shutdown, then closes and removes the socket file
/// (a socket systemd passed is used as it is and left in place).
package struct SocketServerService: Service {
    package static let lineLimit = 1 << 20

    let core: DaemonCore
    let path: String
    let logger: Logger
    let limits: ClientLimits
    let policy: AccessPolicy
    /// A listening socket systemd passed (socket activation): used as it is, and never removed.
    let activated: SocketActivation.Listener?

    package init(
        core: DaemonCore, path: String, logger: Logger, limits: ClientLimits = ClientLimits(), policy: AccessPolicy = AccessPolicy(),
        activated: SocketActivation.Listener? = nil
    ) {
        self.core = core
        self.path = activated?.path ?? path
        self.logger = logger
        self.limits = limits
        self.policy = policy
        self.activated = activated
    }

    /// Checks and creates the socket directory (0700, ours; 0750 of `group` when the socket is
    /// shared with a group) and removes a stale socket file. Throws when the directory is someone
    /// else's or a daemon already answers there.
    package static func prepare(path: String, group: UInt32? = nil) throws(SocketSetupError) {
        guard FileName.bytes(of: path).count <= 107 else { throw SocketSetupError("socket path is longer than 107 bytes: \(path)") }
        let dir = RelativePath.parent(path).isEmpty ? "/" : RelativePath.parent(path)
        let me = FileSystem.currentUser
        if let status = try? FileSystem.status(dir) {
            guard status.kind == .directory else { throw SocketSetupError("\(dir) is not a directory") }
            if status.owner != me && dir != "/tmp" {
                throw SocketSetupError("\(dir) belongs to uid \(status.owner), not to you (uid \(me)); refusing to put the socket there")
            }
        } else {
            do { try FileSystem.makeDirectory(dir, mode: 0o700) } catch  where error.errno == EEXIST {} catch {
                throw SocketSetupError("cannot create \(dir): \(error.reason)")
            }
            if (try? FileSystem.status(dir))?.owner != me { throw SocketSetupError("\(dir) was created by someone else; refusing") }
        }
        if let group, dir != "/tmp" {
            do {
                try FileSystem.changeOwner(dir, group: group)
                try FileSystem.changeMode(dir, 0o750)
            } catch {
                throw SocketSetupError(
                    "cannot give \(dir) to group \(UserDatabase.groupName(group) ?? String(group)): \(error.reason) (the daemon's user must be in that group, or root)"
                )
            }
        }
        if (try? FileSystem.status(path)) != nil {
            if UnixSocket.answers(path) { throw SocketSetupError("another reswatch daemon already answers at \(path)") }
            FileSystem.removeFile(path)  // stale: left by a daemon that died
        }
    }

    package func run() async throws {
        let core = self.core
        let table = MethodTable(daemon: core)
        let logger = self.logger
        let limits = self.limits
        let policy = self.policy
        let mark = ChannelOptions.Types.WriteBufferWaterMark(low: limits.queueBytes / 4, high: limits.queueBytes)
        let clients = ClientCounter()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark, value: mark)
            .childChannelInitializer { channel in
                let count = clients.opened()
                core.clientGauge.opened()
                channel.closeFuture.whenComplete { _ in
                    clients.closed()
                    core.clientGauge.closed()
                }
                guard count <= limits.maxClients else {
                    return channel.eventLoop.makeCompletedFuture {
                        if let n = clients.refused() {
                            logger.warning(
                                "refused \(n == 1 ? "a client" : "\(n) clients since the last report"): \(limits.maxClients) connections are open (max-clients)"
                            )
                        }
                        try channel.pipeline.syncOperations.addHandler(RefuseHandler(limit: limits.maxClients))
                    }
                }
                return Self.peer(of: channel).flatMapThrowing { peer in
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(limit: Self.lineLimit)))
                    try channel.pipeline.syncOperations.addHandler(
                        RPCConnectionHandler(
                            daemon: core, table: table, logger: logger, lineLimit: Self.lineLimit, limits: limits, peer: peer,
                            policy: policy))
                }
            }
        let channel: any Channel
        if let activated {
            // systemd made it (SocketMode=, SocketGroup=): its mode and owner are the unit's.
            channel = try await bootstrap.withBoundSocket(activated.descriptor).get()
            logger.info("listening on \(path) (socket activation)")
        } else {
            // Bound here, from the path's bytes (SwiftNIO's bind would take its UTF-8); NIO listens.
            channel = try await bootstrap.withBoundSocket(UnixSocket.bound(path)).get()
            if let group = policy.socketGroup {
                try FileSystem.changeOwner(path, group: group)
                try FileSystem.changeMode(path, 0o660)
            } else {
                try FileSystem.changeMode(path, 0o600)
            }
            logger.info("listening on \(path)")
        }
        await core.serverListening()
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
        if activated == nil { FileSystem.removeFile(path) }  // a socket systemd made stays: it starts the next daemon
        logger.info("socket closed")
    }
}

extension SocketServerService {
    /// The credentials of the process at the other end (SO_PEERCRED).
    static func peer(of channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(SocketSetupError("the connection has no socket options"))
        }
        return provider.unsafeGetSocketOption(
            level: SocketOptionLevel(PeerCredentials.optionLevel), name: SocketOptionName(PeerCredentials.optionName))
    }
}

package struct SocketSetupError: Error, CustomStringConvertible {
    package let description: String
    init(_ text: String) { description = text }
}
