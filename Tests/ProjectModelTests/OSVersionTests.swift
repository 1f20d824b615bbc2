import Foundation
import ProjectModel
import TestSupport
import Testing

@Suite struct OSVersionTests {
    /// The scalar trim reads every text as Foundation's `trimmingCharacters(in: .whitespaces ∪ "\"")` did.
    @Test func versionsReadAsWithFoundationsTrim() {
        let pieces = [
            "1", "17", ".", "0", " ", "\t", "\"", "\u{A0}", "\u{3000}", "\u{2009}", "\n", "\r", "x", "-", "+", "é", "\u{200B}", "\u{180E}",
            "\u{1680}", "\u{202F}", "\u{205F}", "\u{2028}", "\u{85}", "\u{FEFF}", "",
        ]
        func old(_ text: String) -> [Int]? {
            let trimmed = text.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: "\"")))
            let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
            guard !parts.isEmpty, parts.count <= 4 else { return nil }
            var values: [Int] = []
            for part in parts {
                guard let v = Int(part), v >= 0 else { return nil }
                values.append(v)
            }
            return values
        }
        var g = SeededGenerator(seed: 17)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...7, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            #expect(OSVersion(text)?.components == old(text), "\(Array(text.unicodeScalars))")
        }
        #expect(OSVersion(" \"17.0.1\"\t")?.components == [17, 0, 1])
        #expect(OSVersion("\u{A0}12\u{3000}")?.components == [12])
        #expect(OSVersion("\n12") == nil, "a line break is not trimmed")
    }
}
