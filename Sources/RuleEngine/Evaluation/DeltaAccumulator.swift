import Findings

/// The diagnostics one engine call dropped and stored; the delta is their multiset difference,
/// so a change costs what it touches, never the size of the store.
struct DeltaAccumulator {
    private var dropped: [Diagnostic] = []
    private var stored: [Diagnostic] = []

    mutating func drop(_ diagnostics: [Diagnostic]) { dropped += diagnostics }
    mutating func store(_ diagnostics: [Diagnostic]) { stored += diagnostics }

    /// Starts a call: the engine's own scan diagnostics count as dropped, and are stored again at
    /// the end if still current.
    mutating func begin(scan: [Diagnostic]) {
        dropped = scan
        stored = []
    }

    mutating func end(scan: [Diagnostic], evaluationsRun: Int) -> DiagnosticDelta {
        stored += scan
        var delta = Self.difference(dropped, stored)
        delta.evaluationsRun = evaluationsRun
        dropped = []
        stored = []
        return delta
    }

    static func difference(_ before: [Diagnostic], _ after: [Diagnostic]) -> DiagnosticDelta {
        var counts: [Diagnostic: Int] = [:]
        for d in before { counts[d, default: 0] += 1 }
        var delta = DiagnosticDelta()
        for d in after {
            if let c = counts[d], c > 0 { counts[d] = c - 1 } else { delta.added.append(d) }
        }
        for (d, c) in counts where c > 0 { delta.removed += Array(repeating: d, count: c) }
        delta.removed.sort(by: Diagnostic.stableOrder)
        return delta
    }
}
