import Testing

@testable import RuleEngine

/// The per-rule evaluation histogram: one bucket counted per evaluation, exposed cumulatively as
/// Prometheus wants (each bound counts every evaluation at or under it).
@Suite struct RuleMetricTests {
    @Test func evaluationsLandInOneBucketAndAreExposedCumulatively() {
        var stat = RuleStat()
        for nanoseconds: UInt64 in [10_000, 50_000, 60_000, 2_000_000, 7_000_000_000] { stat.add(nanoseconds: nanoseconds) }
        #expect(stat.evaluations == 5 && stat.bucketCounts.reduce(0, +) == 5)
        let cumulative = stat.cumulativeCounts
        #expect(cumulative.count == RuleStat.bucketBounds.count)
        #expect(cumulative[0] == 2, "10 µs and 50 µs are at or under 50 µs")
        #expect(cumulative[1] == 3, "60 µs is under 100 µs")
        #expect(cumulative[5] == 4, "2 ms is under 2.5 ms")
        #expect(cumulative.last == 4, "7 s is over the last bound: counted only in +Inf (the evaluation count)")
        #expect(zip(cumulative, cumulative.dropFirst()).allSatisfy { $0 <= $1 })

        var merged = RuleStat()
        merged.merge(stat)
        merged.merge(stat)
        #expect(merged.cumulativeCounts == cumulative.map { $0 * 2 } && merged.evaluations == 10)
    }
}
