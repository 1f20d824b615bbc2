import Foundation
import RuleEngine
import Synchronization
import TestSupport
import Testing

@testable import Daemon

/// A root's engine jobs run one at a time on a queue the worker holds only while a job is in
/// flight.
@Suite struct EngineWorkerTests {
    /// What the jobs did, in order, across threads.
    final class Trace: Sendable {
        let events = Mutex<[String]>([])
        func add(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    /// Polls (up to 60 s) until `done`.
    func waitUntil(_ done: () -> Bool) async throws {
        for _ in 0..<6_000 where !done() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func overlappingJobsRunOneAtATimeInTheOrderGiven() async throws {
        let tree = try TempTree(["a/Info.plist": .text("<plist><dict/></plist>")])
        let worker = EngineWorker(tree.engine())
        let trace = Trace()
        let release = DispatchSemaphore(value: 0)
        async let first = worker.run { engine in
            trace.add("1 start")
            release.wait()  // until the second job is handed over
            trace.add("1 end \(engine.fileCount)")
            return DiagnosticDelta()
        }
        try await waitUntil { trace.all == ["1 start"] }
        #expect(worker.holdsQueue, "a job is in flight")
        async let second = worker.run { engine in
            trace.add("2 start")
            trace.add("2 end \(engine.fileCount)")
            return DiagnosticDelta()
        }
        try await waitUntil { worker.jobsInFlight == 2 }
        #expect(trace.all == ["1 start"], "the second job waits for the first")
        release.signal()
        let (_, firstSummary, _) = await first
        let (_, secondSummary, _) = await second
        #expect(trace.all == ["1 start", "1 end 1", "2 start", "2 end 1"])
        #expect(firstSummary.files == 1 && secondSummary.files == 1, "the summary is the engine's after the job")
        #expect(!worker.holdsQueue && worker.jobsInFlight == 0, "at rest the worker holds no queue")
    }

    @Test func aJobAfterRestGetsAQueueAgainAndALongOneSaysSo() async throws {
        let tree = try TempTree(["a/Info.plist": .text("<plist><dict/></plist>")])
        let worker = EngineWorker(tree.engine())
        for round in 0..<3 {
            let (_, _, long) = await worker.run { _ in
                if round == 2 { Thread.sleep(forTimeInterval: 0.15) }
                return DiagnosticDelta()
            }
            if round == 2 { #expect(long, "over 100 ms is long") }
            #expect(!worker.holdsQueue)
        }
    }
}
