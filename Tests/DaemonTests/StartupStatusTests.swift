import Foundation
import ImageFacts
import ReswatchProtocol
import TestSupport
import Testing

/// `status` lists every configured root from the first reply on. The daemon scans its roots one
/// after another, and its socket may answer before the first is added: a reply that left out the
/// roots not added yet read as "every root ready" to a client waiting for no root `scanning` (the
/// CI run of 895c9ba: `SyncBarrierTests` wrote into a root the daemon had not added, and `sync`,
/// which no root in its first scan holds up, returned before that root was scanned).
@Suite struct StartupStatusTests {
    @Test func everyConfiguredRootIsListedFromTheFirstReply() throws {
        let big = try TempTree([:])
        let png = Data(PNGSynthesizer.encode(PNGSpec(width: 16, height: 16)))
        let contents = Data(
            #"{"images":[{"idiom":"universal","filename":"a.png","scale":"1x"}],"info":{"version":1,"author":"xcode"}}"#.utf8)
        // Enough for the first root's scan to take a while: the other two wait for it.
        for i in 0..<3_000 {
            let dir = "\(big.path)/Assets.xcassets/I\(i).imageset"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try contents.write(to: URL(fileURLWithPath: dir + "/Contents.json"))
            try png.write(to: URL(fileURLWithPath: dir + "/a.png"))
        }
        let small = try (0..<2).map { _ in try TempTree([SyncBarrierTests.brokenSet: .text("{ broken")]) }
        let configured = [big.path] + small.map(\.path)
        let daemon = try DaemonHarness(roots: configured, waitReady: false)
        defer { _ = daemon.stop() }

        var replies = 0
        var sawWaiting = false
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            guard let status = try? daemon.call("status", timeoutMilliseconds: 5000) else {
                usleep(2_000)  // not listening yet
                continue
            }
            replies += 1
            let roots = status["roots"]?.array ?? []
            let listed = roots.compactMap { $0["path"]?.string }
            guard listed.sorted() == configured.sorted() else {
                Issue.record("reply \(replies) lists \(listed), not the three configured roots")
                return
            }
            let state = Dictionary(uniqueKeysWithValues: roots.map { ($0["path"]?.string ?? "", $0) })
            if state[big.path]?["state"]?.string == "scanning", state[small[1].path]?["state"]?.string == "scanning" {
                sawWaiting = sawWaiting || state[small[1].path]?["reason"]?.string?.contains("waiting to be scanned") == true
            }
            if roots.allSatisfy({ $0["state"]?.string != "scanning" }) { break }
            usleep(5_000)
        }
        #expect(replies > 0, "the daemon answered: \(daemon.stderr)")
        #expect(sawWaiting, "a reply during the first root's scan listed the others as scanning, waiting their turn")
        // Ready means ready: every root's findings are there.
        let lines = try daemon.diagnosticLines().filter { $0.hasPrefix("catalog.contents-invalid") }
        #expect(lines.count == 2, "\(lines)")
    }
}
