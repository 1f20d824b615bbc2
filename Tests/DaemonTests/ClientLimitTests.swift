import Foundation
import TestSupport
import Testing

/// What one socket client may cost the daemon (issue 10, item 7): pipelined requests are read only
/// as fast as their replies are taken, connections are capped, and silent or non-reading clients are
/// closed after the idle timeout.
@Suite(.serialized) struct ClientLimitTests {
    static func request(_ id: Int) -> String { "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"status\"}\n" }

    func daemon(config: String = "") throws -> (TempTree, DaemonHarness) {
        let tree = try TempTree([
            "App/A.imageset/Contents.json": .text("{\"images\":[]}"), "daemon.yaml": .text(config.isEmpty ? "{}\n" : config),
        ])
        let daemon = try DaemonHarness(roots: [tree.path + "/App"], arguments: ["--config", tree.path + "/daemon.yaml"])
        return (tree, daemon)
    }

    @Test func aClientThatPipelinesWithoutReadingIsReadOnlyAsFastAsItReads() throws {
        let (tree, daemon) = try daemon()
        defer { withExtendedLifetime(tree) { _ = daemon.stop() } }
        let pid = daemon.process.processIdentifier
        let before = try #require(residentBytes(pid: pid))
        let flood = RawSocketClient.self
        let client = try flood.init(path: daemon.socket)
        // 300,000 requests (13 MB) whose replies (≈ 130 MB) the client does not read.
        var bytes: [UInt8] = []
        for id in 0..<300_000 { bytes += Self.request(id).utf8 }
        let sent = client.sendWithoutBlocking(bytes, waitMilliseconds: 2000)
        #expect(sent < 8 << 20, "the daemon stopped reading once its replies waited unread (took \(sent) of \(bytes.count) bytes)")
        let after = try #require(residentBytes(pid: pid))
        if !Repo.underSanitizer {  // ASan's shadow memory and quarantine inflate resident memory
            #expect(after - before < 96 << 20, "resident memory grew by \((after - before) >> 20) MB")
        }

        // Every complete request it took is answered once the client reads, and the daemon serves others.
        let expected = bytes[..<sent].filter { $0 == 0x0A }.count
        let replies = client.receiveLines(expected)
        #expect(replies.count == expected)
        #expect(replies.allSatisfy { $0.contains("\"result\"") && $0.contains("\"roots\"") })
        let ids = Set(
            replies.compactMap { line -> Int? in
                guard let r = line.range(of: "\"id\":") else { return nil }
                return Int(line[r.upperBound...].prefix { $0.isNumber })
            })
        #expect(ids == Set(0..<expected), "each id answered once")
        let other = try daemon.call("status")
        #expect(other["roots"]?.array?.count == 1, "\(other) \(daemon.stderr)")
    }

    @Test func connectionsPastMaxClientsAreRefusedWithAReason() throws {
        let (tree, daemon) = try daemon(config: "max-clients: 3\n")
        defer { withExtendedLifetime(tree) { _ = daemon.stop() } }
        var open: [RawSocketClient] = []
        for id in 0..<3 {
            let c = try RawSocketClient(path: daemon.socket)
            #expect(c.send(Self.request(id)))
            #expect(c.receiveLines(1).first?.contains("\"result\"") == true)
            open.append(c)
        }
        let refused = try RawSocketClient(path: daemon.socket)
        let (reply, closed) = refused.receive()
        #expect(String(decoding: reply, as: UTF8.self).contains("too many clients: 3 connections are open (max-clients)"))
        #expect(closed, "the refused connection is closed")

        open.removeFirst()  // closes one: a new client is served again
        var served = false
        for _ in 0..<50 where !served {
            let c = try RawSocketClient(path: daemon.socket)
            _ = c.send(Self.request(9))
            served = c.receiveLines(1).first?.contains("\"result\"") == true
            if !served { usleep(100_000) }
        }
        #expect(served)
    }

    /// A flood of connections past the cap is refused, each with its reply, and logged as a
    /// count, not a log line per connection (a shared host's log is not flooded).
    @Test func aFloodOfRefusedConnectionsIsLoggedAsACount() throws {
        let (tree, daemon) = try daemon(config: "max-clients: 3\n")
        defer { withExtendedLifetime(tree) { _ = daemon.stop() } }
        var held: [RawSocketClient] = []
        for id in 0..<3 {
            let c = try RawSocketClient(path: daemon.socket)
            #expect(c.send(Self.request(id)) && c.receiveLines(1).first?.contains("\"result\"") == true)
            held.append(c)
        }
        for _ in 0..<60 {
            let refused = try RawSocketClient(path: daemon.socket)
            #expect(String(decoding: refused.receive().0, as: UTF8.self).contains("too many clients"))
        }
        let lines = daemon.stderr.split(separator: "\n").filter { $0.contains("refused") && $0.contains("max-clients") }
        #expect(!lines.isEmpty && lines.count <= 2, "one line, then at most one count per 10 s: \(lines)")
        withExtendedLifetime(held) {}
    }

    @Test func silentAndNonReadingClientsAreClosedSubscribersStay() throws {
        let (tree, daemon) = try daemon(config: "client-idle-timeout: 1\n")
        defer { withExtendedLifetime(tree) { _ = daemon.stop() } }
        let silent = try RawSocketClient(path: daemon.socket)
        let partial = try RawSocketClient(path: daemon.socket)
        #expect(partial.send("{\"jsonrpc\":\"2.0\",\"id\":1,"))
        let subscriber = try RawSocketClient(path: daemon.socket)
        #expect(subscriber.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\"}\n"))
        #expect(subscriber.receiveLines(1).first?.contains("\"result\"") == true)
        let nonReading = try RawSocketClient(path: daemon.socket)
        var flood: [UInt8] = []
        for id in 0..<100_000 { flood += Self.request(id).utf8 }
        _ = nonReading.sendWithoutBlocking(flood, waitMilliseconds: 500)

        #expect(silent.receive(quietMilliseconds: 10_000).closed, "a client that sends nothing is closed")
        #expect(partial.receive(quietMilliseconds: 10_000).closed, "a half-sent line does not hold a connection")
        sleep(2)
        #expect(nonReading.receive(quietMilliseconds: 10_000).closed, "a client that does not read its replies is closed")
        #expect(subscriber.send(Self.request(2)), "a quiet subscriber stays connected")
        let answer = subscriber.receive { String(decoding: $0, as: UTF8.self).contains("\"id\":2,") }
        #expect(
            String(decoding: answer.bytes, as: UTF8.self).contains("\"id\":2,\"jsonrpc\":\"2.0\",\"result\""),
            "closed: \(answer.closed) \(daemon.stderr)")
    }
}
