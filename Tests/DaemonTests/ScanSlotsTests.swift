import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Daemon

/// Whole-root jobs share a few slots (`ScanSlots`): first come, first served; a slot given back
/// goes to the next in line, never lost, never doubled.
@Suite struct ScanSlotsTests {
    @Test func jobsBeyondTheWidthWaitInTurn() {
        var slots = ScanSlots<String>(width: 2)
        #expect(slots.enter(orQueue: "a") && slots.enter(orQueue: "b"))
        #expect(!slots.enter(orQueue: "c") && !slots.enter(orQueue: "d"), "both slots are taken")
        #expect(slots.running == 2 && slots.queued == 2)
        #expect(slots.leave() == "c", "the first in line gets the slot")
        #expect(slots.running == 2 && slots.queued == 1)
        #expect(slots.leave() == "d")
        #expect(slots.leave() == nil && slots.leave() == nil)
        #expect(slots.running == 0)
        #expect(slots.leave() == nil && slots.running == 0, "an extra leave does not go below zero")
    }

    @Test func theWidthIsAtLeastOne() {
        var slots = ScanSlots<Int>(width: 0)
        #expect(slots.width == 1 && slots.enter(orQueue: 1) && !slots.enter(orQueue: 2))
        #expect(ScanSlots<Int>.machineWidth >= 2)
    }
}

/// The real daemon on many roots: their rescans once the watches are in place (and their scans)
/// share the slots, so the daemon's threads stay few. Before, each root's job got a Dispatch
/// thread of its own: 1,000 roots made some 256 threads on 2 cores.
@Suite struct ManyRootsThreadTests {
    static func threads(_ pid: Int32) -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0 }

    @Test func manyRootsScanOnAFewThreads() throws {
        let count = 150
        var trees: [TempTree] = []
        for _ in 0..<count { trees.append(try TempTree(Fixtures.iconSets(3))) }
        let daemon = try DaemonHarness(roots: trees.map(\.path), waitReady: false)
        defer { _ = daemon.stop() }
        let pid = daemon.process.processIdentifier
        // Sampled until every root is ready and its follow-up rescan has run (sync waits for it).
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
