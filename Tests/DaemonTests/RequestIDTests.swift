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
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(connected == 0)
        let request = Array(text.utf8)
        try #require(request.withUnsafeBytes { send(fd, $0.baseAddress, request.count, 0) } == request.count)
        shutdown(fd, Int32(SHUT_WR))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&pfd, 1, 5000) == 1 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
