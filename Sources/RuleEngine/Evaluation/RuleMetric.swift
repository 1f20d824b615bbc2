/// One rule's evaluations, named by its kind and module entry.
public struct RuleMetric: Sendable {
    public let kind: String
    public let source: String
    public let stat: RuleStat
}

extension Engine {
    /// `ruleStats` with each rule's kind.
    public var ruleMetrics: [RuleMetric] {
        var kinds: [String: String] = [:]
        for r in baseRules.rules { kinds[r.source] = r.kindName }
        for p in projectRuleSets { for r in p.rules { kinds[r.source] = r.kindName } }
        return ruleStats.map { RuleMetric(kind: kinds[$0.key] ?? "unknown", source: $0.key, stat: $0.value) }
    }
}

/// How often a rule ran and for how long (the daemon's `reswatch_rule_evaluation*` metrics): a
/// count, the total time, and a histogram of single evaluations.
public struct RuleStat: Sendable, Equatable {
    /// Upper bounds (seconds) of the evaluation time histogram: most evaluations take
    /// microseconds; a project's privacy scan or an exec rule takes seconds.
    public static let bucketBounds: [Double] = [0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1, 5]
    public var evaluations = 0
    public var nanoseconds: UInt64 = 0
    /// Evaluations in each bucket: over the previous bound, at or under this one (one count per
    /// evaluation; `cumulativeCounts` is what Prometheus exposes). The last counts those over 5 s.
    public var bucketCounts = [Int](repeating: 0, count: RuleStat.bucketBounds.count + 1)
    public init() {}
    mutating func add(nanoseconds n: UInt64) {
        evaluations += 1
        nanoseconds &+= n
        let seconds = Double(n) / 1e9
        bucketCounts[Self.bucketBounds.firstIndex { seconds <= $0 } ?? Self.bucketBounds.count] += 1
    }
    /// Evaluations at or under each bound of `bucketBounds`.
    public var cumulativeCounts: [Int] {
        var total = 0
        return bucketCounts.dropLast().map {
            total += $0
            return total
        }
    }
    public mutating func merge(_ o: RuleStat) {
        evaluations += o.evaluations
        nanoseconds &+= o.nanoseconds
        for i in bucketCounts.indices { bucketCounts[i] += o.bucketCounts[i] }
    }
}
