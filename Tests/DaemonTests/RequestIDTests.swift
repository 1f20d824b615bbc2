import Foundation
import ReswatchProtocol
import TestSupport
import Testing

/// A client's request id comes back byte for byte, including whole numbers above 2^53 that a
/// Double would round (issue 10, item 7).
@Suite struct RequestIDTests {
    static let ids = ["9007199254740993", "9223372036854775807", "-9223372036854775808", "0", "\"abc\""]

    @Test(arguments: ids) func theEncoderKeepsTheId(_ id: String) throws {
        let line = Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"status\"}".utf8)
        let request = try RPCRequest.parse(line).get()
        let reply = String(decoding: RPCEncoder.response(id: request.id ?? .null, result: ["ok": true]), as: UTF8.self)
        #expect(reply.contains("\"id\":\(id),"), "\(reply)")
    }

    @Test func theDaemonAnswersEachIdExactly() throws {
        let tree = try TempTree(["A.imageset/Contents.json": .text("{\"images\":[]}")])
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        for id in Self.ids {
            let reply = try exchange(daemon.socket, "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"watch/list\"}\n")
            #expect(reply.contains("\"id\":\(id),"), "\(reply.prefix(300))")
            #expect(reply.contains(tree.path), "a result, not an error: \(reply.prefix(300))")
        }
    }

    /// Sends one line over a fresh connection, half-closes, and returns everything the daemon wrote.
    func exchange(_ path: String, _ text: String) throws -> String {
        let client = try RawSocketClient(path: path)
        try #require(client.send(text))
        client.halfClose()
        return String(decoding: client.receive().bytes, as: UTF8.self)
    }
}
