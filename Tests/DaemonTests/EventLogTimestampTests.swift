import Daemon
import Foundation
import Testing

/// The log's and `status`'s timestamps are written without Foundation's format style (which
/// brought ICU's time zone tables into the daemon's memory); they must stay what it wrote.
@Suite struct EventLogTimestampTests {
    static let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    @Test func matchesFoundationsISO8601Style() {
        var generator = SystemRandomNumberGenerator()
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400.999),  // 2000-02-29
            Date(timeIntervalSince1970: 1_798_761_599.9995), Date(timeIntervalSince1970: 1_764_216_612.345),
            Date(timeIntervalSince1970: 4_102_444_800.001), Date(timeIntervalSince1970: 1_000_000_000.5),
        ]
        for _ in 0..<2000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &generator)))
        }
        for date in dates {
            #expect(EventLog.timestamp(date) == Self.foundation.format(date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func isUTCWithMilliseconds() {
        #expect(EventLog.timestamp(Date(timeIntervalSince1970: 1_764_216_612.345)) == "2025-11-27T04:10:12.345Z")
    }
}
