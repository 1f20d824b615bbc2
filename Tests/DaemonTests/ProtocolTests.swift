import Foundation
import ImageFacts
import ReswatchProtocol
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// Every method, every kind of malformed input, many clients, and a subscriber that never reads.
@Suite(.serialized) struct ProtocolTests {
    static func sample() throws -> TempTree {
        try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/A.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"i.png\"}]}"),
            "App/A.xcassets/AppIcon.appiconset/i.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba)),
            "App/A.xcassets/Logo.imageset/Contents.json": .text("{ nope"),
        ])
    }

    func errorCode(_ body: () throws -> JSONValue) -> Int? {
        do {
            _ = try body()
            return nil
        } catch ClientError.rpc(let e) {
            return e.code
        } catch {
            return -1
        }
    }

    @Test func everyMethod() throws {
        let tree = try Self.sample()
        let other = try TempTree(["B.imageset/x.png": .bytes([1, 2, 3])])
        let daemon = try DaemonHarness(roots: [tree.path])
        let c = try daemon.client()

        let initialize = try c.call("initialize")
        #expect(initialize["server"]?["name"]?.string == "reswatch" && initialize["protocol"]?.int == 1)
        let capabilities = Set(initialize["capabilities"]?.array?.compactMap(\.string) ?? [])
        #expect(capabilities.isSuperset(of: ReswatchRequests.all.map { $0.method }))
        #expect(capabilities.contains("notifications:status/changed"))

        let status = try c.call("status")
        let root = try #require(status["roots"]?.array?.first)
        #expect(root["path"]?.string == tree.path && root["state"]?.string == "ready" && root["files"]?.int == 4)
        #expect(root["errors"]?.int == 2 && root["projects"]?.int == 1 && root["recrawls"]?.int == 0)
        #expect(status["generation"]?.int != nil && status["uptime_s"] != nil && status["rule_errors"]?.array?.isEmpty == true)

        let all = try c.call("diagnostics")
        #expect(all["diagnostics"]?.array?.count == 3, "two errors and the info that App has no Info.plist")
        let onePath = try c.call("diagnostics", .object(["path": .string(tree.path + "/App/A.xcassets/Logo.imageset")]))
        #expect(onePath["diagnostics"]?.array?.map { $0["rule"]?.string } == ["catalog.contents-invalid"])
        let relative = try c.call(
            "diagnostics", .object(["root": .string(tree.path), "path": .string("App/A.xcassets/AppIcon.appiconset")]))
        #expect(relative["diagnostics"]?.array?.map { $0["rule"]?.string } == ["icon.marketing-alpha"])

        #expect(try c.call("watch/list")["roots"] == .array([.string(tree.path)]))
        let added = try c.call("watch/add", .object(["path": .string(other.path)]))
        #expect(added["roots"]?.array?.count == 2)
        #expect(try c.call("diagnostics", .object(["root": .string(other.path)]))["diagnostics"]?.array?.count == 2)
        #expect(try c.call("watch/remove", .object(["path": .string(other.path)]))["roots"]?.array?.count == 1)
        #expect(errorCode { try c.call("watch/remove", .object(["path": .string(other.path)])) } == -32002)
        #expect(errorCode { try c.call("watch/add", .object(["path": .string("/nonexistent/dir")])) } == -32602)
        #expect(errorCode { try c.call("watch/add", .object(["path": .string(tree.path + "/App")])) } == -32602, "overlapping root")
        // "/" contains every root: refused on whole segments, not accepted (it used to be, and its
        // scan then blocked the daemon while the root under it stopped updating).
        #expect(errorCode { try c.call("watch/add", .object(["path": .string("/")])) } == -32602, "/ overlaps every root")
        #expect(
            errorCode { try c.call("watch/add", .object(["path": .string((tree.path as NSString).deletingLastPathComponent)])) } == -32602)

        let generation = try c.call("sync")["generation"]?.int
        let recheck = try c.call("recheck")
        #expect(recheck["generation"]?.int == generation, "a recheck that finds nothing new does not bump the generation")
        let rules = try c.call("rules/list")
        #expect(rules["rules"]?.array?.contains { $0["id"]?.string == "icon.marketing-alpha" } == true)

        let sub = try daemon.client()
        let snapshot = try sub.call("subscribe", .object(["min_severity": .string("error")]))
        #expect(snapshot["diagnostics"]?.array?.count == 2)
        try tree.write(["App/A.xcassets/Logo.imageset/Contents.json": .text("{\"images\":[]}")])
        try daemon.sync()
        let note = try #require(try sub.readMessage(timeoutMilliseconds: 5000))
        #expect(note["method"]?.string == "diagnostics/changed")
        #expect(note["params"]?["removed"]?.array?.first?["rule"]?.string == "catalog.contents-invalid")
        #expect(try sub.call("unsubscribe") == .object([:]))
        #expect(errorCode { try sub.call("unsubscribe") } == -32600)

        #expect(try c.call("shutdown") == .object([:]))
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket), "the socket file is removed")
    }

    @Test func malformedInputGetsErrorRepliesAndTheConnectionCarriesOn() throws {
        let tree = try Self.sample()
        let daemon = try DaemonHarness(roots: [tree.path])
        let c = try daemon.client()
        func reply(_ raw: String) throws -> JSONValue? {
            try c.send(raw: Array(raw.utf8))
            return try c.readMessage(timeoutMilliseconds: 5000)
        }
        #expect(try reply("this is not json\n")?["error"]?["code"]?.int == -32700)
        #expect(try reply("[1, 2, 3]\n")?["error"]?["code"]?.int == -32600)
        #expect(try reply("{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"status\"}\n")?["error"]?["code"]?.int == -32600)
        #expect(try reply("{\"jsonrpc\": \"2.0\", \"id\": {\"x\": 1}, \"method\": \"status\"}\n")?["error"]?["code"]?.int == -32600)
        let unknown = try reply("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"frobnicate\"}\n")
        #expect(unknown?["error"]?["code"]?.int == -32601 && unknown?["id"]?.int == 7)
        #expect(
            try reply("{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"diagnostics\", \"params\": {\"root\": 5}}\n")?["error"]?["code"]?.int
                == -32602)
        #expect(
            try reply("{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"sync\", \"params\": {\"timeout_ms\": -1}}\n")?["error"]?["code"]?.int
                == -32602)
        #expect(
            try reply("{\"jsonrpc\": \"2.0\", \"id\": 10, \"method\": \"status\", \"params\": {\"verbose\": true}}\n")?["error"]?["code"]?
                .int == -32602)
        #expect(
            try reply("{\"jsonrpc\": \"2.0\", \"id\": 11, \"method\": \"subscribe\", \"params\": {\"min_severity\": \"fatal\"}}\n")?[
                "error"]?["code"]?.int == -32602)
        // A line over 1 MiB is discarded with an error; the next request on the same connection works.
        let huge =
            "{\"jsonrpc\": \"2.0\", \"id\": 12, \"method\": \"status\", \"params\": {\"pad\": \"" + String(repeating: "x", count: 1 << 20)
            + "\"}}\n"
        let long = try reply(huge)
        #expect(long?["error"]?["code"]?.int == -32600 && long?["error"]?["message"]?.string?.contains("longer than") == true)
        // A notification (no id) gets no reply; binary garbage gets a parse error.
        try c.send(raw: Array("{\"jsonrpc\": \"2.0\", \"method\": \"status\"}\n".utf8))
        #expect(try reply("\u{00}\u{01}\u{02}\u{ff}\n")?["error"]?["code"]?.int == -32700)
        #expect(try c.call("status")["roots"]?.array?.count == 1, "the connection still works")
        #expect(daemon.process.isRunning)
    }

    @Test func fiftyConcurrentClients() async throws {
        let tree = try Self.sample()
        let daemon = try DaemonHarness(roots: [tree.path])
        let socket = daemon.socket
        let failures = await withTaskGroup(of: String?.self) { group -> [String] in
            for i in 0..<50 {
                group.addTask {
                    do {
                        let c = try ReswatchClient(path: socket)
                        for _ in 0..<5 {
                            let d = try c.call("diagnostics", timeoutMilliseconds: 20_000)
                            if d["diagnostics"]?.array?.count != 3 { return "client \(i): wrong answer" }
                        }
                        _ = try c.call("status", timeoutMilliseconds: 20_000)
                        return nil
                    } catch {
                        return "client \(i): \(error)"
                    }
                }
            }
            var out: [String] = []
            for await f in group { if let f { out.append(f) } }
            return out
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// A subscriber that never reads must not stall the daemon or other clients; once it reads
    /// again it gets one `resync` with the current snapshot instead of the dropped notifications.
    @Test func aSubscriberThatNeverReadsDoesNotStallOthers() throws {
        var files: [String: ExampleFile] = ["P/.reswatch.yaml": .text("devices: [iphone]\n")]
        for i in 0..<200 {
            files["P/A.xcassets/S\(i).imageset/Contents.json"] = .text("{\"images\":[]}")
            files["P/A.xcassets/S\(i).imageset/x.png"] = .png(PNGSpec(width: 4, height: 4, color: .gray))
        }
        let tree = try TempTree(files)
        let daemon = try DaemonHarness(roots: [tree.path])
        let stalled = try daemon.client()
        _ = try stalled.call("subscribe")  // and then never reads
        let healthy = try daemon.client()
        _ = try healthy.call("subscribe")
        // Each toggle changes 200 diagnostics with long messages: tens of KB per notification.
        for round in 0..<60 {
            for i in 0..<200 {
                let spec = PNGSpec(width: 4, height: 4, color: round % 2 == 0 ? .rgb : .gray)
                try Data(PNGSynthesizer.encode(spec)).write(to: URL(fileURLWithPath: tree.path + "/P/A.xcassets/S\(i).imageset/x.png"))
            }
            let started = Date()
            try daemon.sync()
            #expect(Date().timeIntervalSince(started) < 10, "sync stalled in round \(round)")
            _ = healthy.drainNotifications()
            while try healthy.readMessage(timeoutMilliseconds: 1) != nil {}
        }
        #expect(try daemon.call("status")["roots"] != nil)
        // Now drain the stalled subscriber: it must end with a resync carrying the current snapshot.
        var sawResync = false
        var last: JSONValue?
        while let m = try stalled.readMessage(timeoutMilliseconds: 3000) {
            if m["method"]?.string == "resync" {
                sawResync = true
                last = m
            }
        }
        #expect(sawResync, "the stalled subscriber got a resync")
        let current = try daemon.call("diagnostics")
        #expect(last?["params"]?["diagnostics"]?.array?.count == current["diagnostics"]?.array?.count)
    }
}

/// `printf '…' | socat - UNIX-CONNECT:…` sends a last line without "\n" and half-closes: the
/// request is still answered, then the daemon closes its side.
@Suite(.serialized) struct HalfCloseTests {
    @Test func aFinalLineWithoutNewlineIsAnsweredAfterHalfClose() throws {
        let tree = try TempTree(["A.imageset/Contents.json": .text("{\"images\":[]}")])
        let daemon = try DaemonHarness(roots: [tree.path])
        let client = try RawSocketClient(path: daemon.socket)
        #expect(client.send("{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"watch/list\"}"))
        client.halfClose()
        let (received, closed) = client.receive()
        #expect(closed, "the daemon closes its side after answering")
        let reply = try JSONSerialization.jsonObject(with: Data(received)) as? [String: Any]
        #expect(reply?["id"] as? Int == 41)
        #expect((reply?["result"] as? [String: Any])?["roots"] as? [String] == [tree.path])
        #expect(received.last == 0x0A)
    }
}
