import Dispatch
import Findings
import Foundation
import ReswatchProtocol
import RuleEngine
import SystemCalls

/// A root's current diagnostics as the actor knows them: the engine's deltas applied in order
/// (a multiset, as the engine's own store is). Costs what a delta holds, never the tree's size.
///
/// Held once per root, so it keeps one table: the counts by severity are three integers, and a
/// rule's count is found by going through the diagnostics (the metrics ask for one rule's, once a
/// scrape). With 1,000 roots of one or two findings each, its three tables were 0.64 MB of the
/// daemon's heap; without the two counting ones, anonymous memory fell by 0.4 MB
/// (docs/performance.md).
struct DiagnosticStore: Sendable {
    private var counts: [Diagnostic: Int] = [:]
    private(set) var bySeverity = SeverityCounts()

    /// How many diagnostics of one rule are held.
    func count(of rule: String) -> Int {
        counts.reduce(0) { $1.key.rule == rule ? $0 + $1.value : $0 }
    }

    mutating func apply(_ delta: DiagnosticDelta) {
        for d in delta.removed {
            guard let n = counts[d] else { continue }
            counts[d] = n > 1 ? n - 1 : nil
            bySeverity[d.severity] -= 1
        }
        for d in delta.added {
            counts[d, default: 0] += 1
            bySeverity[d.severity] += 1
        }
    }

    var all: [Diagnostic] {
        counts.flatMap { repeatElement($0.key, count: $0.value) }.sorted(by: Diagnostic.stableOrder)
    }

    var isEmpty: Bool { counts.isEmpty }
}

/// Diagnostics held, by severity.
struct SeverityCounts: Sendable, Equatable {
    private var errors = 0
    private var warnings = 0
    private var infos = 0

    subscript(severity: Severity) -> Int {
        get {
            switch severity {
            case .error: errors
            case .warning: warnings
            case .info: infos
            }
        }
        set {
            switch severity {
            case .error: errors = newValue
            case .warning: warnings = newValue
            case .info: infos = newValue
            }
        }
    }

    var total: Int { errors + warnings + infos }
}
