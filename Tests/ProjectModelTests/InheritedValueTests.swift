import Foundation
import TestSupport
import Testing

@testable import ProjectModel

/// A build setting's value with `$(inherited)` replaced by the level below and spaces trimmed:
/// the quick path for values with neither answers as Foundation's replacing and trimming did.
@Suite struct InheritedValueTests {
    static func old(_ value: String, _ below: String) -> String {
        var out = value
        for token in ["$(inherited)", "${inherited}", "$(INHERITED)"] { out = out.replacingOccurrences(of: token, with: below) }
        return out.trimmingCharacters(in: .whitespaces)
    }

    @Test func randomValuesAnswerAsBefore() {
        var rng = SeededGenerator(seed: 82)
        let pieces = [
            "$(inherited)", "${inherited}", "$(INHERITED)", " ", "\t", "-ObjC", "$(SRCROOT)", "a", "\u{A0}", "é", "\u{1}", "\"x y\"",
        ]
        for _ in 0..<10_000 {
            let value = (0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let below = Bool.random(using: &rng) ? "" : " -lz "
            #expect(ResolvedBuildSettings.replacingInherited(in: value, with: below) == Self.old(value, below), "\(value.debugDescription)")
        }
    }
}
