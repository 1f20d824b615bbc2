import Foundation
import ImageFacts
import ReswatchProtocol
import TestSupport
import Testing

/// The daemon's actor never waits on a scan (issue 10, item 8): while `watch/add` scans a big
/// root on that root's engine thread, `status` answers and shows it `scanning`, and a change in
/// another root is applied and confirmed by `sync`.
@Suite(.serialized) struct ScanOffActorTests {
    @Test func requestsAreAnsweredWhileABigRootScans() throws {
        let tree = try TempTree(["A/X.imageset/Contents.json": .text("{\"images\":[]}")])
        let big = tree.path + "/B/Assets.xcassets"
        let png = Data(PNGSynthesizer.encode(PNGSpec(width: 64, height: 64)))
        let contents = Data(
            #"{"images":[{"idiom":"universal","filename":"a.png","scale":"1x"}],"info":{"version":1,"author":"xcode"}}"#.utf8)
        let sets = 8_000
        for i in 0..<sets {
            let dir = "\(big)/I\(i).imageset"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try contents.write(to: URL(fileURLWithPath: dir + "/Contents.json"))
            try png.write(to: URL(fileURLWithPath: dir + "/a.png"))
        }
        let daemon = try DaemonHarness(roots: [tree.path + "/A"])
        defer { _ = daemon.stop() }

        let adder = try RawSocketClient(path: daemon.socket)
        #expect(adder.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"watch/add\",\"params\":{\"path\":\"\(tree.path)/B\"}}\n"))
        var sawScanning = false
        var syncedDuringScan = false
        let deadline = Date().addingTimeInterval(120)
        func stateOfB() throws -> String? {
            let status = try daemon.call("status", timeoutMilliseconds: 5000)
            return status["roots"]?.array?.first { $0["path"]?.string == tree.path + "/B" }?["state"]?.string
        }
        while Date() < deadline {
            let state = try stateOfB()
            if state == "ready" { break }
            guard state == "scanning" else { continue }
            sawScanning = true
            if !syncedDuringScan {
                try tree.write(["A/X.imageset/Contents.json": .text("{ broken")])
                try daemon.sync()
                let found = try daemon.call("diagnostics", .object(["root": .string(tree.path + "/A")]))
                let applied = found["diagnostics"]?.array?.contains { $0["path"]?.string?.hasPrefix("X.imageset") == true } == true
                #expect(applied, "the change in A is applied while B scans: \(found)")
                let stillScanning = try stateOfB() == "scanning"
                syncedDuringScan = applied && stillScanning
            }
        }
        #expect(sawScanning, "status answered during the scan and showed the root as scanning")
        #expect(syncedDuringScan, "sync returned, with A's change applied, while B was still scanning")
        let reply = adder.receiveLines(1, quietMilliseconds: 60_000).first ?? ""
        #expect(reply.contains("\"id\":7") && reply.contains("\(tree.path)/B"), "watch/add answers once the scan is done: \(reply)")
        let status = try daemon.call("status")
        let b = status["roots"]?.array?.first { $0["path"]?.string == tree.path + "/B" }
        #expect(b?["state"]?.string == "ready")
        #expect(b?["files"]?.int == sets * 2)
    }
}
