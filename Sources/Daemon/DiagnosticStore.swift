import Dispatch
import Findings
import Foundation
import ReswatchProtocol
import RuleEngine
import SystemCalls

/// A root's current diagnostics as the actor knows them: the engine's deltas applied in order
/// (a multiset, as the engine's own store is). Costs what a delta holds, never the tree's size.
struct DiagnosticStore: Sendable {
    private var counts: [Diagnostic: Int] = [:]
    private(set) var bySeverity: [Severity: Int] = [:]
    private var byRule: [String: Int] = [:]

    func count(of rule: String) -> Int { byRule[rule] ?? 0 }

    mutating func apply(_ delta: DiagnosticDelta) {
        for d in delta.removed {
            guard let n = counts[d] else { continue }
            counts[d] = n > 1 ? n - 1 : nil
            bySeverity[d.severity, default: 0] -= 1
            byRule[d.rule, default: 0] -= 1
        }
        for d in delta.added {
            counts[d, default: 0] += 1
            bySeverity[d.severity, default: 0] += 1
            byRule[d.rule, default: 0] += 1
        }
    }

    var all: [Diagnostic] {
        counts.flatMap { repeatElement($0.key, count: $0.value) }.sorted(by: Diagnostic.stableOrder)
    }

    var isEmpty: Bool { counts.isEmpty }
}
