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

    /// Composed with Yams' basic resolver (no regular expressions), a document still reads as the
    /// default resolver reads it: booleans in their YAML 1.1 spellings, keys found by their text,
    /// duplicate keys refused.
    @Test func theBasicResolverReadsWhatTheDefaultOneDid() {
        let text = "a: true\nb: No\nc: 'on'\nd: OFF\ne: maybe\nf: 1\n1: one\ng: [x]\n"
        guard case .success(let root?) = YAMLLimits.compose(text) else {
            Issue.record("did not compose")
            return
        }
        #expect(["a", "b", "c", "d", "e", "f"].map { YAMLLimits.bool(root[$0]) } == [true, false, true, false, nil, nil])
        #expect(YAMLLimits.bool(root["g"]) == nil && YAMLLimits.bool(root["missing"]) == nil)
        #expect(root["f"]?.int == 1)
        #expect(root["1"]?.string == "one")
        let repeated = YAMLLimits.compose("a: 1\nb: 2\na: 3\n")
        guard case .failure(let problem) = repeated else {
            Issue.record("a repeated key was accepted")
            return
        }
        #expect(problem.message.contains("duplicate"), "\(problem.message)")
    }

    /// A key is found by its text whatever the default resolver would have typed it as: an
    /// XcodeGen configuration named "1" or "Yes" keeps its configFiles entry.
    @Test func keysAreFoundByTheirTextWhateverTheyLookLike() {
        let text = "configFiles:\n  \"1\": one.xcconfig\n  Yes: yes.xcconfig\n  Debug: debug.xcconfig\n"
        guard case .success(let root?) = YAMLLimits.compose(text), let map = root.mapping else {
            Issue.record("did not compose")
            return
        }
        let spec = XcodeGenSpec(path: "App/project.yml", map: map)
        #expect(
            ["1", "Yes", "Debug"].map { spec.configFile(map["configFiles"], config: $0) } == [
                "App/one.xcconfig", "App/yes.xcconfig", "App/debug.xcconfig",
            ])
    }
}
