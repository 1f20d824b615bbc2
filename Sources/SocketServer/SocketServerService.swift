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
        if let status = try? FileSystem.status(dir) {
            guard status.kind == .directory else { throw SocketSetupError("\(dir) is not a directory") }
            let owner = ownerOf(dir)
            if owner != getuid() && dir != "/tmp" {
                throw SocketSetupError("\(dir) belongs to uid \(owner), not to you (uid \(getuid())); refusing to put the socket there")
            }
        } else {
            if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                throw SocketSetupError("cannot create \(dir): \(String(cString: strerror(errno)))")
            }
            if ownerOf(dir) != getuid() { throw SocketSetupError("\(dir) was created by someone else; refusing") }
        }
        if (try? FileSystem.status(path)) != nil {
            if Self.answers(path) { throw SocketSetupError("another reswatch daemon already answers at \(path)") }
            unlink(path)  // stale: left by a daemon that died
        }
    }

    static func ownerOf(_ path: String) -> uid_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_uid : uid_t.max
    }

    static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
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
                        logger.warning("refused a client: \(limits.maxClients) connections are open (max-clients)")
                        try channel.pipeline.syncOperations.addHandler(RefuseHandler(limit: limits.maxClients))
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(limit: Self.lineLimit)))
                    try channel.pipeline.syncOperations.addHandler(
                        RPCConnectionHandler(core: core, logger: logger, lineLimit: Self.lineLimit, limits: limits))
                }
            }
        let channel = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).get()
        chmod(path, 0o600)
        logger.info("listening on \(path)")
        await core.serverListening()
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
        unlink(path)
        logger.info("socket closed")
    }
}

public struct SocketSetupError: Error, CustomStringConvertible {
    public let description: String
    init(_ text: String) { description = text }
}
