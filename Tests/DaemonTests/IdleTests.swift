import Foundation
import TestSupport
import Testing

/// An idle daemon's watcher thread sleeps until an event (issue 11, item 4): it used to wake once
/// a second to look for commands, which now arrive as an event of their own.
@Suite struct IdleTests {
    /// Context switches of the process's thread named `name` (voluntary + involuntary).
    static func switches(pid: Int32, thread name: String) -> Int? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        for task in tasks {
            let dir = "/proc/\(pid)/task/\(task)"
            guard (try? String(contentsOfFile: dir + "/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                let status = try? String(contentsOfFile: dir + "/status", encoding: .utf8)
            else { continue }
            return status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") }.reduce(0, +)
        }
        return nil
    }

    @Test func theWatcherThreadDoesNotWakeWhileNothingHappens() throws {
        let tree = try TempTree(["A.imageset/Contents.json": .text("{\"images\":[]}")])
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        let pid = daemon.process.processIdentifier
        // The thread names itself before it reads its first event, and a sync's barrier comes
        // back through it: once a sync is answered, the thread has run and is named. (Polling for
        // the name for 20 s ran out twice when two full test suites shared the 2 cores.)
        try daemon.sync()
        try #require(Self.switches(pid: pid, thread: "rw-inotify") != nil, "the watcher thread is named rw-inotify")
        sleep(1)
        let before = try #require(Self.switches(pid: pid, thread: "rw-inotify"))
        sleep(3)
        let after = try #require(Self.switches(pid: pid, thread: "rw-inotify"))
        #expect(after == before, "the idle watcher thread woke \(after - before) times in 3 s")
        // And it still wakes for a change.
        try tree.write(["A.imageset/Contents.json": .text("{ broken")])
        try daemon.sync()
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("catalog.contents-invalid") })
    }
}
