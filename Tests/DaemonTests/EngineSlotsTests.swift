import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Daemon

/// A pool of engine slots (`EngineSlots`): first come, first served; a slot given back goes to
/// the next in line, never lost, never doubled; the heap is trimmed when the pool falls idle after
/// a burst long enough, or after a long job, and not after each lone change.
@Suite struct EngineSlotsTests {
    @Test func jobsBeyondTheWidthWaitInTurn() {
        var slots = EngineSlots<String>(width: 2, trimAfter: 4)
        let first = slots.tryEnter()
        let second = slots.tryEnter()
        let third = slots.tryEnter()
        #expect(first && second && !third, "both slots are taken")
        slots.queue("c")
        slots.queue("d")
        #expect(slots.running == 2 && slots.queued == 2)
        var left = slots.leave()
        #expect(left.next == "c" && !left.trim, "the first in line gets the slot")
        #expect(slots.running == 2 && slots.queued == 1)
        left = slots.leave()
        #expect(left.next == "d" && !left.trim)
        left = slots.leave()
        #expect(left.next == nil && !left.trim, "one job still runs")
        left = slots.leave()
        #expect(left.next == nil && left.trim, "idle after a burst of four jobs: trimmed")
        #expect(slots.running == 0 && slots.burst == 0)
        left = slots.leave()
        #expect(!left.trim && slots.running == 0, "an extra leave does not go below zero")
    }

    @Test func aLoneShortJobIsNotFollowedByATrimButALongOneIs() {
        var changes = EngineSlots<Int>(width: 2, trimAfter: 16)
        var trims = 0
        for _ in 0..<20 {
            _ = changes.tryEnter()
            if changes.leave().trim { trims += 1 }
        }
        #expect(trims == 0, "twenty changes one after another: bursts of one")
        _ = changes.tryEnter()
        _ = changes.tryEnter()
        let before = changes.leave(long: true)
        let after = changes.leave()
        #expect(!before.trim && after.trim, "a long job: trimmed once the pool is idle")
        var scans = EngineSlots<Int>(width: 2, trimAfter: 1)
        _ = scans.tryEnter()
        #expect(scans.leave().trim, "every whole-root burst is trimmed after")
    }

    @Test func theWidthIsAtLeastOne() {
        var slots = EngineSlots<Int>(width: 0, trimAfter: 0)
        let first = slots.tryEnter()
        let second = slots.tryEnter()
        #expect(slots.width == 1 && slots.trimAfter == 1 && first && !second)
        #expect(EngineSlots<Int>.machineWidth >= 2)
    }
}

/// The real daemon on many roots: their scans (and the rescans of roots scanned before their
/// watches were in place) share slots, and so do their change sets, so the daemon's threads stay few. Before, each
/// root's job got a Dispatch thread of its own: 1,000 roots made some 256 threads on 2 cores, and
/// a change in each of them 225.
@Suite struct ManyRootsThreadTests {
    static func threads(_ pid: Int32) -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0 }

    @Test func manyRootsScanOnAFewThreads() throws {
        let count = 150
        var trees: [TempTree] = []
        for _ in 0..<count { trees.append(try TempTree(Fixtures.iconSets(3))) }
        // A settle long enough that the 150 changes below are one batch, applied at once.
        let daemon = try DaemonHarness(roots: trees.map(\.path), arguments: ["--settle-ms", "1000"], waitReady: false)
        defer { _ = daemon.stop() }
        let pid = daemon.process.processIdentifier
        // Sampled until every root is ready and whatever its watches' word started has run (sync
        // waits for it; roots watched ahead of their scans have no follow-up rescan).
        let sampler = ThreadSampler(pid: pid)
        sampler.start()
        defer { sampler.stop() }
        try daemon.waitUntilReady(seconds: 120)
        try daemon.sync()
        let peak = sampler.peak
        // A thread per root would be some 150. Dispatch adds a few threads to its pool when the
        // machine is loaded (19-21 seen with other suites running, 13 alone).
        let bound = count / 3
        #expect(peak > 0 && peak <= bound, "at most \(peak) threads for \(count) roots (bound \(bound))")
        let roots = try daemon.call("status")["roots"]?.array ?? []
        // Each: a .reswatch.yaml and three sets of a Contents.json and three PNGs.
        #expect(roots.count == count && roots.allSatisfy { $0["state"]?.string == "ready" && $0["files"]?.int == 13 })

        // Then a change in every root at once, applied by then: a set's Contents.json broken, and
        // the project's configuration, which re-runs all of the root's rules.
        let changes = ThreadSampler(pid: pid)
        changes.start()
        defer { changes.stop() }
        for t in trees {
            try t.write([
                "A.xcassets/Set0.appiconset/Contents.json": .text("{ broken"),
                ".reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"16.0\"\n"),
            ])
        }
        try daemon.sync()
        #expect(changes.peak > 0 && changes.peak <= bound, "at most \(changes.peak) threads for a change in each of \(count) roots")
        let broken = try daemon.diagnosticLines().filter { $0.hasPrefix("catalog.contents-invalid") }
        #expect(broken.count == count, "every root's change was applied: \(broken.count) of \(count)")
    }
}

/// The most threads a process had, sampled every 2 ms on a thread of its own.
final class ThreadSampler: Sendable {
    let pid: Int32
    private let state = Mutex((peak: 0, done: false))

    init(pid: Int32) { self.pid = pid }

    var peak: Int { state.withLock { $0.peak } }

    func start() {
        Thread { [self] in
            while !state.withLock({ $0.done }) {
                let n = ManyRootsThreadTests.threads(pid)
                state.withLock { $0.peak = max($0.peak, n) }
                usleep(2_000)
            }
        }.start()
    }

    func stop() { state.withLock { $0.done = true } }
}
