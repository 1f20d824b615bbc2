import Foundation
import RuleEngine
import TestSupport
import Testing

/// With a tiny inotify queue a burst overflows it; the daemon rescans, converges, and says so.
@Suite(.serialized) struct OverflowTests {
    @Test(.enabled(if: getuid() == 0, "needs root to lower /proc/sys/fs/inotify/max_queued_events (skipped: not root)"))
    func overflowingBurstStillConverges() throws {
        let knob = "/proc/sys/fs/inotify/max_queued_events"
        let original = try String(contentsOfFile: knob, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var files: [String: ExampleFile] = ["P/.reswatch.yaml": .text("devices: [iphone]\n")]
        for i in 0..<40 { files["P/A.xcassets/S\(i).imageset/Contents.json"] = .text("{\"images\":[]}") }
        let tree = try TempTree(files)
        // The limit applies to inotify instances created while it is low: lower it, start, restore.
        try "16".write(toFile: knob, atomically: false, encoding: .utf8)
        let daemon: DaemonHarness
        do {
            daemon = try DaemonHarness(roots: [tree.path])
        } catch {
            try? original.write(toFile: knob, atomically: false, encoding: .utf8)
            throw error
        }
        try original.write(toFile: knob, atomically: false, encoding: .utf8)

        // Freeze the daemon while the burst is written so the 16-event kernel queue must overflow.
        daemon.signal(SIGSTOP)
        for i in 0..<40 {
            for j in 0..<6 {
                let spec = PNGSpec(width: 4 + j, height: 4, color: j % 2 == 0 ? .gray : .rgb)
                try Data(PNGSynthesizer.encode(spec)).write(to: URL(fileURLWithPath: tree.path + "/P/A.xcassets/S\(i).imageset/f\(j).png"))
            }
        }
        daemon.signal(SIGCONT)
        try daemon.sync()
        let status = try daemon.call("status")
        let root = try #require(status["roots"]?.array?.first)
        #expect((root["recrawls"]?.int ?? 0) >= 1, "the overflow was seen and recrawled: \(root)")
        #expect(daemon.stderr.contains("rescanning (inotify queue overflow)"))
        let live = try daemon.diagnosticLines()
        let cold = try coldCheckLines(tree.path)
        #expect(live == cold, "only daemon: \(Set(live).subtracting(cold)); only cold: \(Set(cold).subtracting(live))")
        #expect(live.count { $0.hasPrefix("image.not-rgb") } == 120)
    }
}
