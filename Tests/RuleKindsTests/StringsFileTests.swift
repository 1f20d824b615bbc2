import Testing

@testable import RuleKinds

/// `.strings` files as Xcode reads them (`StringsFile`): keys and their lines; a value is read
/// past, not kept; a bare word's letters are what they were per Unicode property.
@Suite struct StringsFileTests {
    @Test func keysAndLinesOfQuotedBareAndShortPairs() throws {
        let text = "/* c */ \"a\" = \"x \\\" y\";\n// note\nbare_Wörd = value;\n\n\"alone\";\n\"ü\" = 12;"
        let keys = try StringsFile.keys(Array(text.utf8)).get()
        #expect(keys.map(\.key) == ["a", "bare_Wörd", "alone", "ü"])
        #expect(keys.map(\.line) == [1, 3, 5, 6])
    }

    @Test func aMissingValueOrSemicolonIsSaidWithItsLine() {
        guard case .failure(let noValue) = StringsFile.keys(Array("\"a\" = ;".utf8)) else { Issue.record("parsed"); return }
        #expect(noValue.message.contains("a value") && noValue.line == 1)
        guard case .failure(let noEnd) = StringsFile.keys(Array("\"a\" = \"b\"\n\"c\" = \"d\";".utf8)) else {
            Issue.record("parsed"); return
        }
        #expect(noEnd.message.contains("\";\"") || noEnd.message.contains(";"), "\(noEnd.message)")
    }

    /// The ASCII shortcut answers as the Unicode properties did, for every scalar up to U+2FFF.
    @Test func wordScalarsAreTheLettersDigitsAndMarksTheyWere() {
        for value in 0..<0x3000 {
            guard let c = Unicode.Scalar(value) else { continue }
            let old = c.properties.isAlphabetic || ("0"..."9").contains(c) || "_$+/:.-".unicodeScalars.contains(c)
            #expect(StringsFile.Scanner.isWordScalar(c) == old, "U+\(String(value, radix: 16))")
        }
    }
}
