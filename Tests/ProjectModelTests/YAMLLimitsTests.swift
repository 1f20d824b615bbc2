import Foundation
import Testing

@testable import ProjectModel

/// The alias-key guard runs before Yams composes a module: it must find every alias used as a
/// key wherever the parser ends a line, and nothing else.
@Suite struct YAMLLimitsTests {
    /// The guard as it was written first (regular expressions over "\n"-split lines), for LF text.
    static func reference(_ text: String) -> Int? {
        let patterns = [#"^\s*(-\s+)*\?\s*\*"#, #"^\s*(-\s+)*\*[^\s:,\]\}]+\s*:"#, #"[\{,]\s*\?*\s*\*[^\s:,\]\}]+\s*:"#]
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("*") {
            if patterns.contains(where: { String(line).range(of: $0, options: .regularExpression) != nil }) { return i + 1 }
        }
        return nil
    }

    @Test func agreesWithTheRegularExpressionsOnGeneratedLines() {
        let pieces = [
            "", " ", "  ", "\t", "- ", "-", "? ", "?", "*a", "*", "*long_name", ":", " :", ",", "{", "}", "[", "]", "x", "&a ", "'", "#",
        ]
        var rng = SystemRandomNumberGenerator()
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let line = (0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let text = "a: &a x\n" + line + "\n"
            if YAMLLimits.aliasKeyLine(text) != Self.reference(text) { disagreements.append(line) }
        }
        #expect(disagreements.isEmpty, "\(Set(disagreements).prefix(10))")
    }

    @Test(arguments: ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"])
    func everyLineEndTheParserKnowsEndsALine(_ end: String) {
        let text = ["a: &a x", "b: 1", "c:", "  - ? *a", "    : 1"].joined(separator: end) + end
        #expect(YAMLLimits.aliasKeyLine(text) == 4)
        #expect(YAMLLimits.aliasKeyLine(["a: &a x", "*a : 1"].joined(separator: end)) == 2)
        #expect(YAMLLimits.aliasKeyLine(["a: &a x", "b: *a", "c: [*a, *a]", "d: '*a: 1'"].joined(separator: end)) == nil)
    }

    @Test func textWithoutAStarIsNotScanned() {
        #expect(YAMLLimits.aliasKeyLine("a: 1\nb: [x, y]\n") == nil)
        #expect(YAMLLimits.aliasKeyLine("") == nil)
        #expect(YAMLLimits.aliasKeyLine("*") == nil)
    }
}
