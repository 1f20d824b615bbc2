import Daemon
import Logging
import NIOCore
import NIOPosix
import RuleEngine
import ServiceLifecycle
import SystemCalls

/// The Unix-socket server (SwiftNIO). Prepares a private socket directory, refuses to start when
/// another daemon answers, serves until graceful shutdown, then closes and removes the socket file.
public struct SocketServerService: Service {
    public static let lineLimit = 1 << 20

    let core: DaemonCore
    let path: String
    let logger: Logger
    let limits: ClientLimits

    public init(core: DaemonCore, path: String, logger: Logger, limits: ClientLimits = ClientLimits()) {
        self.core = core
        self.path = path
        self.logger = logger
        self.limits = limits
    }

    /// Checks and creates the socket directory (0700, ours) and removes a stale socket file.
    /// Throws when the directory is someone else's or a daemon already answers there.
    public static func prepare(path: String) throws(SocketSetupError) {
        guard path.utf8.count <= 107 else { throw SocketSetupError("socket path is longer than 107 bytes: \(path)") }
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
        if (try? FileSystem.status(path)) != nil {
            if UnixSocket.answers(path) { throw SocketSetupError("another reswatch daemon already answers at \(path)") }
            FileSystem.removeFile(path)  // stale: left by a daemon that died
        }
    }

    public func run() async throws {
        let core = self.core
        let logger = self.logger
        let limits = self.limits
        let mark = ChannelOptions.Types.WriteBufferWaterMark(low: limits.queueBytes / 4, high: limits.queueBytes)
        let clients = ClientCounter()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark, value: mark)
            .childChannelInitializer { channel in
                let count = clients.opened()
                channel.closeFuture.whenComplete { _ in clients.closed() }
                return channel.eventLoop.makeCompletedFuture {
                    guard count <= limits.maxClients else {
                        if let n = clients.refused() {
                            logger.warning(
                                "refused \(n == 1 ? "a client" : "\(n) clients since the last report"): \(limits.maxClients) connections are open (max-clients)"
                            )
                        }
                        try channel.pipeline.syncOperations.addHandler(RefuseHandler(limit: limits.maxClients))
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(limit: Self.lineLimit)))
                    try channel.pipeline.syncOperations.addHandler(
                        RPCConnectionHandler(core: core, logger: logger, lineLimit: Self.lineLimit, limits: limits))
                }
            }
        let channel = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).get()
        try FileSystem.changeMode(path, 0o600)
        logger.info("listening on \(path)")
        await core.serverListening()
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
        FileSystem.removeFile(path)
        logger.info("socket closed")
    }
}

public struct SocketSetupError: Error, CustomStringConvertible {
    public let description: String
    init(_ text: String) { description = text }
}
