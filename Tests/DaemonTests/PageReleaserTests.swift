import Foundation
import Synchronization
import Testing

@testable import Daemon

/// The heap is trimmed after large messages on the socket, once for a burst of them, and never
/// for small ones.
@Suite struct PageReleaserTests {
    final class Counter: Sendable {
        let trims = Atomic<Int>(0)
        /// Waits (up to 10 s) until `count` trims have run; the count then.
        func waitFor(_ count: Int) async throws -> Int {
            for _ in 0..<1_000 where trims.load(ordering: .acquiring) < count { try await Task.sleep(for: .milliseconds(10)) }
            return trims.load(ordering: .acquiring)
        }
    }

    @Test func aBurstOfLargeMessagesIsOneTrimAndSmallOnesNone() async throws {
        let counter = Counter()
        let pages = PageReleaser(delay: .milliseconds(500)) { counter.trims.add(1, ordering: .releasing) }
        for _ in 0..<100 { pages.wrote(bytes: PageReleaser.largeMessage - 1) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(counter.trims.load(ordering: .acquiring) == 0, "small messages leave the heap alone")

        for _ in 0..<20 { pages.wrote(bytes: 186_065) }  // well within the delay
        #expect(try await counter.waitFor(1) == 1)
        try await Task.sleep(for: .milliseconds(700))
        #expect(counter.trims.load(ordering: .acquiring) == 1, "one trim for the burst")

        pages.wrote(bytes: PageReleaser.largeMessage)
        #expect(try await counter.waitFor(2) == 2, "a later large message is trimmed after as well")
        for _ in 0..<1_000 where pages.trims < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(pages.trims == 2, "counted for the metrics")
    }
}
