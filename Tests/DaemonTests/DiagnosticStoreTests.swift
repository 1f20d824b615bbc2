import Findings
import RuleEngine
import Testing

@testable import Daemon

/// A root's diagnostics as the actor holds them: a multiset the engine's deltas add to and take
/// from, with its counts by severity (status, metrics, the systemd status line) and by rule (the
/// exec-failure metric) always those of what is held.
@Suite struct DiagnosticStoreTests {
    func finding(_ rule: String, _ severity: Severity, _ path: String) -> Diagnostic {
        Diagnostic(rule: rule, severity: severity, root: "/r", project: "", path: path, message: "\(rule) at \(path)")
    }

    @Test func countsFollowWhatIsHeld() {
        var store = DiagnosticStore()
        let a = finding("icon.size", .error, "a.png")
        let b = finding("icon.alpha", .warning, "b.png")
        let c = finding("rules.exec-failed", .error, "rules/x.yaml")
        store.apply(DiagnosticDelta(added: [a, b, c, a]))
        #expect(store.bySeverity[.error] == 3 && store.bySeverity[.warning] == 1 && store.bySeverity[.info] == 0)
        #expect(store.bySeverity.total == 4 && store.all.count == 4)
        #expect(store.count(of: "icon.size") == 2 && store.count(of: "rules.exec-failed") == 1 && store.count(of: "nope") == 0)

        store.apply(DiagnosticDelta(removed: [a, c]))
        #expect(store.bySeverity[.error] == 1 && store.count(of: "icon.size") == 1 && store.count(of: "rules.exec-failed") == 0)
        #expect(store.all == [a, b].sorted(by: Diagnostic.stableOrder))

        store.apply(DiagnosticDelta(removed: [a, b]))
        #expect(store.isEmpty && store.bySeverity == SeverityCounts())
    }

    /// A removal of something not held (a delta replayed twice, a root re-added) leaves the
    /// counts alone: they never go below what the table holds.
    @Test func removingWhatIsNotHeldChangesNothing() {
        var store = DiagnosticStore()
        let a = finding("icon.size", .error, "a.png")
        store.apply(DiagnosticDelta(removed: [a]))
        #expect(store.isEmpty && store.bySeverity.total == 0)
        store.apply(DiagnosticDelta(added: [a]))
        store.apply(DiagnosticDelta(removed: [a, a]))
        #expect(store.isEmpty && store.bySeverity[.error] == 0)
    }

    /// The table is an array while it holds few findings and a dictionary past `fewLimit`: the
    /// same answers either side of the limit, crossing it with one delta, and after it shrinks.
    @Test func sameAnswersEitherSideOfTheSmallFormsLimit() {
        var store = DiagnosticStore()
        let many = (0..<(DiagnosticStore.fewLimit * 2)).map {
            finding($0 % 3 == 0 ? "icon.size" : "icon.alpha", $0 % 3 == 0 ? .error : .warning, "f\($0).png")
        }
        var expected: [Diagnostic] = []
        func check(_ step: String) {
            #expect(store.all == expected.sorted(by: Diagnostic.stableOrder), "\(step)")
            #expect(store.bySeverity.total == expected.count, "\(step)")
            #expect(store.bySeverity[.error] == expected.filter { $0.severity == .error }.count, "\(step)")
            #expect(store.count(of: "icon.size") == expected.filter { $0.rule == "icon.size" }.count, "\(step)")
            #expect(store.isEmpty == expected.isEmpty, "\(step)")
        }
        let head = Array(many.prefix(DiagnosticStore.fewLimit - 2))
        store.apply(DiagnosticDelta(added: head + [head[0]]))  // one held twice
        expected = head + [head[0]]
        check("under the limit")
        store.apply(DiagnosticDelta(added: Array(many.dropFirst(head.count)), removed: [head[1]]))  // crosses it
        expected.remove(at: expected.firstIndex(of: head[1])!)
        expected += many.dropFirst(head.count)
        check("past the limit")
        store.apply(DiagnosticDelta(removed: [head[0], many[20], many[20]]))  // the second is not held
        expected.remove(at: expected.firstIndex(of: head[0])!)
        expected.remove(at: expected.firstIndex(of: many[20])!)
        check("removed past the limit")
        store.apply(DiagnosticDelta(removed: expected))
        expected = []
        check("emptied")
        store.apply(DiagnosticDelta(added: [many[3], many[3]]))
        expected = [many[3], many[3]]
        check("small again")
    }
}
