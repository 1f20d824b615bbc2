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
///
/// The table is a plain array while it holds few findings, as most roots' does: a dictionary of
/// one 168-byte finding was 424 bytes (two buckets and their header), the array of it 200. Past
/// `fewLimit` a dictionary, so that a delta of thousands is not a scan for each finding.
struct DiagnosticStore: Sendable {
    private enum Held: Sendable {
        /// Each finding once per time it is held (a multiset as an array).
        case few([Diagnostic])
        case many([Diagnostic: Int])
    }

    static let fewLimit = 16
    private var held = Held.few([])
    private(set) var bySeverity = SeverityCounts()

    /// How many diagnostics of one rule are held.
    func count(of rule: String) -> Int {
        switch held {
        case .few(let list): list.reduce(0) { $1.rule == rule ? $0 + 1 : $0 }
        case .many(let counts): counts.reduce(0) { $1.key.rule == rule ? $0 + $1.value : $0 }
        }
    }

    mutating func apply(_ delta: DiagnosticDelta) {
        for d in delta.removed where remove(d) { bySeverity[d.severity] -= 1 }
        if case .few(var list) = held, list.count + delta.added.count <= Self.fewLimit {
            held = .few([])  // no second reference while `list` grows
            list += delta.added
            held = .few(list)
        } else {
            var counts = counted()
            held = .few([])
            for d in delta.added { counts[d, default: 0] += 1 }
            held = .many(counts)
        }
        for d in delta.added { bySeverity[d.severity] += 1 }
    }

    /// Takes one `d` out; false when none is held.
    private mutating func remove(_ d: Diagnostic) -> Bool {
        switch held {
        case .few(var list):
            guard let i = list.firstIndex(of: d) else { return false }
            held = .few([])
            list.remove(at: i)
            held = .few(list)
        case .many(var counts):
            guard let n = counts[d] else { return false }
            held = .few([])
            counts[d] = n > 1 ? n - 1 : nil
            held = counts.isEmpty ? .few([]) : .many(counts)
        }
        return true
    }

    /// What is held as a dictionary of counts (the form past `fewLimit`).
    private func counted() -> [Diagnostic: Int] {
        switch held {
        case .few(let list): list.reduce(into: [:]) { $0[$1, default: 0] += 1 }
        case .many(let counts): counts
        }
    }

    var all: [Diagnostic] {
        switch held {
        case .few(let list): list.sorted(by: Diagnostic.stableOrder)
        case .many(let counts): counts.flatMap { repeatElement($0.key, count: $0.value) }.sorted(by: Diagnostic.stableOrder)
        }
    }

    var isEmpty: Bool {
        switch held {
        case .few(let list): list.isEmpty
        case .many(let counts): counts.isEmpty
        }
    }
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
