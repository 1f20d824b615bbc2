import Foundation
import TestSupport
import Testing
import Watcher

/// A consumer that falls behind: the watcher's stream is full, events are dropped and owed as a
/// rescan. A `sync` barrier read meanwhile must neither be dropped (its `sync` would time out)
/// nor overtake that rescan (its `sync` would return before the lost changes are applied).
/// In `InotifyWatcherTests`, whose tests run one at a time: libinotifytools keeps its state in
/// globals, one watcher per process.
extension InotifyWatcherTests {
    @Test func aBarrierReadWhileTheStreamIsFullComesAfterTheOwedRescan() async throws {
        let tree = try TempTree(["d/keep.txt": .text("")])
        let watcher = InotifyWatcher(excludes: [], bufferLimit: 4)
        defer { watcher.stop() }
        watcher.start()
        watcher.add(root: tree.path)
        // Nobody reads yet: the stream keeps 4 events (the watch's rescan first), the rest are dropped.
        for i in 0..<20 { try tree.write(["d/f\(i).png": .text("\(i)")]) }
        #expect(watcher.barrier(41))
        let barrierFile = try #require(watcher.wakeDirectory) + "/barrier-41"
        let deadline = Date().addingTimeInterval(10)
        while FileManager.default.fileExists(atPath: barrierFile) && Date() < deadline { usleep(5_000) }
        #expect(!FileManager.default.fileExists(atPath: barrierFile), "the watcher read the barrier's event")
        #expect(watcher.overflows.buffer >= 1, "events were dropped")

        var events: [WatchEvent] = []
        let reader = Task {
            var seen: [WatchEvent] = []
            for await event in watcher.events {
                seen.append(event)
                if case .barrier = event { break }
            }
            return seen
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            watcher.stop()  // ends the stream: a dropped barrier shows as its absence
        }
        events = await reader.value
        timeout.cancel()
        let barrier = events.firstIndex(of: .barrier(41))
        let rescan = events.firstIndex(of: .rescan(root: tree.path, reason: .bufferOverflow))
        #expect(barrier != nil, "the barrier came through: \(events)")
        #expect(rescan != nil, "the dropped events came back as a rescan: \(events)")
        if let barrier, let rescan { #expect(rescan < barrier, "the rescan of what was lost came first: \(events)") }
    }
}
