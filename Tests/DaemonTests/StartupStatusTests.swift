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
        // Enough for the first root's scan to take a while: the other two wait for it.
        try big.addImageSets(3_000)
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

    /// An editor adds a folder inside a configured root the daemon has not reached yet: that root
    /// is added (and scanned) then, not the folder as a root of its own that would keep the
    /// configured root out ("overlaps the watched root") for the rest of the daemon's life.
    @Test func aFolderInARootNotReachedYetAddsThatRoot() throws {
        let big = try TempTree([:])
        try big.addImageSets(3_000)
        let small = try TempTree([SyncBarrierTests.brokenSet: .text("{ broken")])
        let daemon = try DaemonHarness(roots: [big.path, small.path], waitReady: false)
        defer { _ = daemon.stop() }
        let added = try Self.onFirstStatus(of: daemon, whileBothWait: "the folder is added") {
            try daemon.call("watch/add", .object(["path": .string(small.path + "/A.xcassets")]))
        }
        #expect(added?["roots"]?.array?.compactMap(\.string).contains(small.path) == true, "\(String(describing: added))")
        try daemon.waitUntilReady(seconds: 120)
        let roots = try daemon.call("status")["roots"]?.array ?? []
        #expect(roots.compactMap { $0["path"]?.string } == [big.path, small.path].sorted(), "\(roots)")
        #expect(roots.allSatisfy { $0["state"]?.string == "ready" })
        #expect(!daemon.stderr.contains("cannot watch"), "\(daemon.stderr)")
        #expect(try daemon.diagnosticLines().count { $0.hasPrefix("catalog.contents-invalid") } == 1)
    }

    /// `watch/list` names a configured root the daemon has not reached, as `status` does, and
    /// `watch/remove` takes it out: it is never scanned (it was "not watched" before).
    @Test func aRootNotReachedYetIsListedAndCanBeRemoved() throws {
        let big = try TempTree([:])
        try big.addImageSets(3_000)
        let small = try TempTree([SyncBarrierTests.brokenSet: .text("{ broken")])
        let daemon = try DaemonHarness(roots: [big.path, small.path], waitReady: false)
        defer { _ = daemon.stop() }
        let removed = try Self.onFirstStatus(of: daemon, whileBothWait: "it is listed and removed") {
            let listed = try daemon.call("watch/list")["roots"]?.array?.compactMap(\.string)
            #expect(listed == [big.path, small.path].sorted(), "\(String(describing: listed))")
            return try daemon.call("watch/remove", .object(["path": .string(small.path)]))
        }
        #expect(removed?["roots"]?.array?.compactMap(\.string) == [big.path], "\(String(describing: removed))")
        try daemon.waitUntilReady(seconds: 120)
        let roots = try daemon.call("status")["roots"]?.array ?? []
        #expect(roots.compactMap { $0["path"]?.string } == [big.path], "\(roots)")
        #expect(try daemon.call("watch/list")["roots"]?.array?.compactMap(\.string) == [big.path])
        #expect(try daemon.diagnosticLines().count { $0.hasPrefix("catalog.contents-invalid") } == 0, "never scanned")
        #expect(daemon.stderr.contains("will not watch") && !daemon.stderr.contains("cannot watch"), "\(daemon.stderr)")
    }

    /// Polls `status` until the daemon answers, expects both of its two roots still `scanning`
    /// (the first being scanned, the second waiting), and runs `body` then: its reply, or nil
    /// when the daemon never answered.
    static func onFirstStatus(
        of daemon: DaemonHarness, whileBothWait doing: String, _ body: () throws -> JSONValue
    ) throws -> JSONValue? {
        for _ in 0..<2_000 {
            if let status = try? daemon.call("status", timeoutMilliseconds: 2000) {
                let states = (status["roots"]?.array ?? []).map { $0["state"]?.string }
                #expect(states == ["scanning", "scanning"], "both roots still to come when \(doing): \(status)")
                return try body()
            }
            usleep(5_000)
        }
        Issue.record("the daemon never answered status: \(daemon.stderr)")
        return nil
    }
}
