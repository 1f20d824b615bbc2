import Daemon
import Findings
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import ReswatchProtocol
import Synchronization
import SystemCalls
import Testing

@testable import SocketServer

/// A daemon that answers `watch/list` and `sync` only, and records what a connection asks of
/// its subscriber hub: the connection handler is tested against it, without a core or a socket.
final class FakeDaemon: DaemonService {
    struct Record {
        var served: [String] = []
        var subscribed: [UInt64] = []
        var unsubscribed: [UInt64] = []
        var wrote = 0
    }
    let record = Mutex(Record())
    /// Delivered to a subscriber's sink before `subscribe` returns (it must reach the client after the reply).
    let earlyNotification: [UInt8]?

    init(earlyNotification: [UInt8]? = nil) { self.earlyNotification = earlyNotification }

    var version: String { "fake-1" }
    var servedMethods: Set<String> { [WatchListRequest.method, SyncRequest.method] }

    func serve<R: ReswatchRequest>(_ request: R.Type, _ params: R.Params) async throws(RPCError) -> R.Response {
        record.withLock { $0.served.append(R.method) }
        if let answer = WatchListResult(roots: ["/srv/app"]) as? R.Response, R.method == WatchListRequest.method { return answer }
        throw .timeout("sync timed out (fake)")
    }

    func subscribe(minimumSeverity: Severity, sink: any NotificationSink) async -> (UInt64, DiagnosticsSnapshot) {
        let id = record.withLock { r -> UInt64 in
            r.subscribed.append(UInt64(r.subscribed.count + 1))
            return UInt64(r.subscribed.count)
        }
        if let earlyNotification { sink.deliver(earlyNotification) }
        return (id, DiagnosticsSnapshot(generation: 7, diagnostics: []))
    }

    func unsubscribe(_ id: UInt64) async -> Bool {
        record.withLock { $0.unsubscribed.append(id) }
        return true
    }

    func resyncSnapshot(subscriber id: UInt64) async -> DiagnosticsSnapshot? { nil }

    func wrote(bytes: Int) { record.withLock { $0.wrote += bytes } }
}

/// `RPCConnectionHandler` on NIO's testing channel: framing, dispatch through the method table,
/// error replies, roles, subscription order and clean-up, each line as a client would send it.
@Suite struct RPCConnectionHandlerTests {
    static let lineLimit = 256

    static func connected(_ daemon: FakeDaemon, policy: AccessPolicy = AccessPolicy()) async throws -> NIOAsyncTestingChannel {
        let channel = NIOAsyncTestingChannel()
        let handler = RPCConnectionHandler(
            daemon: daemon, table: MethodTable(daemon: daemon), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            lineLimit: lineLimit, limits: ClientLimits(), peer: PeerCredentials(pid: 1, uid: FileSystem.currentUser, gid: 0),
            policy: policy)
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder(limit: lineLimit)))
            try channel.pipeline.syncOperations.addHandler(handler)
        }
        try await channel.connect(to: try SocketAddress(unixDomainSocketPath: "/reswatch-test.sock")).get()
        return channel
    }

    static func send(_ channel: NIOAsyncTestingChannel, _ line: String) async throws {
        try await channel.writeInbound(ByteBuffer(string: line + "\n"))
    }

    /// The next line the handler writes, as JSON.
    static func reply(_ channel: NIOAsyncTestingChannel) async throws -> [String: Any] {
        let buffer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]
        return try #require(object, "\(String(buffer: buffer))")
    }

    static func errorCode(_ reply: [String: Any]) -> Int? { (reply["error"] as? [String: Any])?["code"] as? Int }

    @Test func aRequestIsHandedToTheDaemonAndItsAnswerReturned() async throws {
        let daemon = FakeDaemon()
        let channel = try await Self.connected(daemon)
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":1,"method":"watch/list"}"#)
        let reply = try await Self.reply(channel)
        #expect(reply["id"] as? Int == 1)
        #expect((reply["result"] as? [String: Any])?["roots"] as? [String] == ["/srv/app"])
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":"s","method":"sync"}"#)
        let failed = try await Self.reply(channel)
        #expect(failed["id"] as? String == "s" && Self.errorCode(failed) == -32001, "the daemon's typed error is the reply")
        #expect(daemon.record.withLock { $0.served } == ["watch/list", "sync"])
        #expect(daemon.record.withLock { $0.wrote } > 0, "written bytes are counted for the page releaser")
    }

    @Test func initializeListsWhatThisServerAnswers() async throws {
        let channel = try await Self.connected(FakeDaemon())
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#)
        let result = try #require(try await Self.reply(channel)["result"] as? [String: Any])
        #expect((result["server"] as? [String: Any])?["version"] as? String == "fake-1")
        let methods = (result["capabilities"] as? [String] ?? []).filter { !$0.hasPrefix("notifications:") }
        #expect(methods == ["initialize", "subscribe", "unsubscribe", "sync", "watch/list"], "\(result)")
    }

    @Test func garbageGetsAnErrorReplyAndTheConnectionGoesOn() async throws {
        let daemon = FakeDaemon()
        let channel = try await Self.connected(daemon)
        for line in [
            "{nope", "[]", #"{"jsonrpc":"2.0","id":2,"method":"watch/list","params":{"x":1}}"#, String(repeating: "a", count: 300),
        ] {
            try await Self.send(channel, line)
            let reply = try await Self.reply(channel)
            #expect(reply["error"] != nil, "\(line.prefix(40)): \(reply)")
        }
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":3,"method":"watch/list"}"#)
        #expect(try await Self.reply(channel)["id"] as? Int == 3)
        #expect(channel.isActive)
    }

    @Test func anUnknownOrUnservedMethodIsNamedWithWhatIsServed() async throws {
        let channel = try await Self.connected(FakeDaemon())
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":1,"method":"status"}"#)
        let reply = try await Self.reply(channel)
        #expect(Self.errorCode(reply) == -32601)
        let methods = ((reply["error"] as? [String: Any])?["data"] as? [String: Any])?["methods"] as? [String]
        #expect(methods == ["initialize", "subscribe", "unsubscribe", "sync", "watch/list"], "\(reply)")
    }

    @Test func aNotificationGetsNoReply() async throws {
        let channel = try await Self.connected(FakeDaemon())
        try await Self.send(channel, #"{"jsonrpc":"2.0","method":"watch/list"}"#)
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":9,"method":"watch/list"}"#)
        #expect(try await Self.reply(channel)["id"] as? Int == 9, "the first line written answers the request, not the notification")
    }

    @Test func aPeerWithoutARoleIsRefusedAndTheDaemonNotAsked() async throws {
        let daemon = FakeDaemon()
        let channel = try await Self.connected(daemon, policy: AccessPolicy(adminUsers: [], adminGroup: nil, readerGroup: nil))
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":1,"method":"watch/list"}"#)
        let reply = try await Self.reply(channel)
        #expect(reply["error"] != nil && reply["result"] == nil, "\(reply)")
        #expect(daemon.record.withLock { $0.served }.isEmpty)
    }

    @Test func theSubscribeReplyComesBeforeAnyNotificationAndClosingUnsubscribes() async throws {
        let note = Array(#"{"jsonrpc":"2.0","method":"diagnostics/changed","params":{}}"#.utf8) + [10]
        let daemon = FakeDaemon(earlyNotification: note)
        let channel = try await Self.connected(daemon)
        try await Self.send(channel, #"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"#)
        let first = try await Self.reply(channel)
        #expect(first["id"] as? Int == 1 && (first["result"] as? [String: Any])?["generation"] as? Int == 7, "\(first)")
        let second = try await Self.reply(channel)
        #expect(second["method"] as? String == "diagnostics/changed", "held until the snapshot was written: \(second)")
        _ = try await channel.finish(acceptAlreadyClosed: true)
        for _ in 0..<1000 where daemon.record.withLock({ $0.unsubscribed.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(daemon.record.withLock { $0.unsubscribed } == [1], "a closed connection's subscription ends")
    }
}
