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

/// How often a rule ran and for how long (the daemon's `reswatch_rule_evaluation*` metrics).
public struct RuleStat: Sendable, Equatable {
    public var evaluations = 0
    public var nanoseconds: UInt64 = 0
    public init() {}
    mutating func add(nanoseconds n: UInt64) {
        evaluations += 1
        nanoseconds &+= n
    }
    mutating func merge(_ o: RuleStat) {
        evaluations += o.evaluations
        nanoseconds &+= o.nanoseconds
    }
}
