import Findings
import RuleEngine
import Testing

/// Two deltas in a row as one: what the daemon publishes for a change applied while it settled
/// and the changes applied after it.
@Suite struct DiagnosticDeltaTests {
    static func finding(_ path: String, _ rule: String = "image.not-rgb") -> Diagnostic {
        Diagnostic(rule: rule, severity: .error, root: "/r", project: "", path: path, message: "m")
    }

    /// Applies deltas to a multiset of findings, as the daemon's store does.
    static func apply(_ deltas: [DiagnosticDelta], to start: [Diagnostic]) -> [Diagnostic: Int] {
        var counts: [Diagnostic: Int] = [:]
        for d in start { counts[d, default: 0] += 1 }
        for delta in deltas {
            for d in delta.removed { counts[d] = counts[d].map { $0 > 1 ? $0 - 1 : nil } ?? nil }
            for d in delta.added { counts[d, default: 0] += 1 }
        }
        return counts
    }

    @Test func aFindingAddedThenRemovedIsInNeither() {
        let a = Self.finding("a.png")
        let merged = DiagnosticDelta(added: [a], evaluationsRun: 2).followed(by: DiagnosticDelta(removed: [a], evaluationsRun: 3))
        #expect(merged.isEmpty && merged.evaluationsRun == 5)
    }

    @Test func theMergedDeltaLeadsWhereBothDo() {
        let (a, b, c) = (Self.finding("a.png"), Self.finding("b.png"), Self.finding("c.png", "icon.size-mismatch"))
        let start = [a, b, b]
        let first = DiagnosticDelta(added: [c], removed: [a, b])
        let second = DiagnosticDelta(added: [a, a], removed: [c, b])
        let merged = first.followed(by: second)
        #expect(Self.apply([merged], to: start) == Self.apply([first, second], to: start))
        #expect(merged.added == [a] && merged.removed == [b, b])
    }
}
