import Foundation
import ReswatchProtocol
import RuleEngine
import RuleKit
import SystemCalls
import TestSupport
import Testing

/// Prometheus metrics: `reswatch metrics` and `--metrics-file`, checked by the real `promtool`
/// (Debian `prometheus`, installed by `make test`), with hostile root names in the labels.
@Suite(.serialized) struct MetricsTests {
    static let promtool = "/usr/bin/promtool"

    func check(_ text: String) throws {
        let dir = try TempTree()
        let file = dir.path + "/m.prom"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try runCommand("/bin/sh", ["-c", "\"$0\" check metrics < \"$1\"", Self.promtool, file])
        #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "promtool: \(r.stdout) \(r.stderr)\n\(text)")
    }

    @Test func metricsAreValidAndFollowTheCounts() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.promtool), "promtool: make test installs Debian's prometheus")
        // A root whose name holds a quote, a backslash and a newline: label values are escaped.
        let parent = try TempTree()
        let root = parent.path + "/odd \"name\\ \nroot"
        try ExampleRunner.write(["A.imageset/Contents.json": .text("{\"images\":[]}")], under: root)
        let metricsFile = parent.path + "/reswatch.prom"
        let daemon = try DaemonHarness(roots: [root], arguments: ["--metrics-file", metricsFile])

        let once = try runCommand(Repo.binary, ["metrics", "--socket", daemon.socket])
        #expect(once.status == 0, "\(once.stderr)")
        try check(once.stdout)
        for family in [
            "reswatch_findings", "reswatch_files", "reswatch_root_state", "reswatch_watches", "reswatch_rescans_total",
            "reswatch_queue_depth", "reswatch_batch_duration_seconds", "reswatch_rule_evaluations_total",
            "reswatch_rule_evaluation_seconds", "reswatch_exec_rule_failures", "reswatch_clients", "reswatch_rule_module_errors",
            "reswatch_inotify_overflows_total", "reswatch_heap_trims_total",
        ] {
            #expect(once.stdout.contains("# TYPE \(family) "), "\(family) is exported")
        }
        let label =
            "root=\""
            + root.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
        #expect(once.stdout.contains("reswatch_findings{\(label),severity=\"error\"} 0"))
        #expect(once.stdout.contains("reswatch_clients 1"), "the metrics call's own connection")
        #expect(once.stdout.contains("reswatch_inotify_overflows_total{queue=\"kernel\"} 0"))
        // Each rule's evaluations: a count and a histogram of their times, by its module entry.
        let entry = try #require(
            once.stdout.firstMatch(
                of: /reswatch_rule_evaluations_total\{rule="(<built-in>\/rules\/catalog\.yaml:\d+)",kind="asset-set-contents"\} (\d+)/))
        let count = try #require(Int(entry.2))
        #expect(count >= 1)
        #expect(once.stdout.contains("reswatch_rule_evaluation_seconds_count{rule=\"\(entry.1)\",kind=\"asset-set-contents\"} \(count)"))
        #expect(
            once.stdout.contains(
                "reswatch_rule_evaluation_seconds_bucket{rule=\"\(entry.1)\",kind=\"asset-set-contents\",le=\"+Inf\"} \(count)"))

        try ExampleRunner.write(["A.imageset/Contents.json": .text("{ broken")], under: root)
        try daemon.sync()
        let deadline = Date().addingTimeInterval(10)
        var written = ""
        while Date() < deadline {
            written = (try? String(contentsOfFile: metricsFile, encoding: .utf8)) ?? ""
            if written.contains("reswatch_findings{\(label),severity=\"error\"} 1") { break }
            usleep(50_000)
        }
        #expect(written.contains("reswatch_findings{\(label),severity=\"error\"} 1"), "the file follows the counts:\n\(written)")
        #expect(written.contains("reswatch_batch_duration_seconds_count "))
        try check(written)
        let mode = try FileSystem.status(metricsFile).mode & 0o777
        #expect(mode == 0o644, "node_exporter (another user) reads it")
    }

    /// A metrics file that cannot be written stops the daemon at start (exit 2, with the reason);
    /// one that can is written 0644 even under a umask of 077 (the units' UMask=), for the collector.
    @Test func anUnwritableMetricsFileIsSaidAtStart() throws {
        let tree = try TempTree()
        let bad = try runCommand(
            Repo.binary, ["daemon", "--socket", tree.path + "/s.sock", "--metrics-file", tree.path + "/no/such/dir/m.prom", tree.path])
        #expect(bad.status == 2 && bad.stderr.contains("cannot write the metrics file"), "\(bad.stderr)")
        let file = tree.path + "/m.prom"
        let started = try runCommand(
            "/bin/sh",
            [
                "-c",
                "umask 077; \"$0\" daemon --socket \"$1\" --metrics-file \"$2\" \"$3\" & sleep 1.5; \"$0\" shutdown --socket \"$1\"; wait",
                Repo.binary, tree.path + "/u.sock", file, tree.path,
            ])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(try FileSystem.status(file).mode & 0o777 == 0o644)
    }

    /// A reply of 64 kB or more is followed by a trim of the heap (`PageReleaser`), through the
    /// real socket: the diagnostics of a root with 400 broken asset sets, and the counter says
    /// so; the scan's own trim is counted apart. The metrics replies read here are small.
    @Test func aLargeReplyIsFollowedByATrim() throws {
        let sets = (0..<400).map { ("Assets.xcassets/S\($0).imageset/Contents.json", ExampleFile.text("{ broken")) }
        let tree = try TempTree(Dictionary(uniqueKeysWithValues: sets))
        let daemon = try DaemonHarness(roots: [tree.path])
        func trims(after: String) throws -> Int? {
            let r = try runCommand(Repo.binary, ["metrics", "--socket", daemon.socket])
            #expect(r.stdout.utf8.count < 64 * 1024, "a metrics reply of \(r.stdout.utf8.count) bytes")
            let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("reswatch_heap_trims_total{after=\"\(after)\"} ") }
            return line.flatMap { Int($0.split(separator: " ").last!) }
        }
        #expect(try trims(after: "socket message") == 0, "no large message yet")
        #expect(try trims(after: "engine jobs").map { $0 >= 1 } == true, "the scan was trimmed after")
        let reply = try daemon.call("diagnostics")
        let bytes = try JSONEncoder().encode(reply).count
        #expect(bytes >= 64 * 1024, "a reply of \(bytes) bytes")
        var seen = 0
        for _ in 0..<100 {
            seen = try trims(after: "socket message") ?? 0
            if seen > 0 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(seen == 1, "one trim after the large reply")
    }
}
