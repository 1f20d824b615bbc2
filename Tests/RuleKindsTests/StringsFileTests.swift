import TestSupport
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

    /// Keys, lines and failures on random text answer as the scanner over Unicode scalars did
    /// (`OldScanner`, the implementation before it read bytes).
    @Test func randomTextAnswersAsTheScalarScanner() {
        var rng = SeededGenerator(seed: 63)
        let pieces = [
            "\"", "\\", "=", ";", " ", "\n", "/*", "*/", "//", "a", "Wörd", "ü", "\u{3000}", "\u{A0}", "é", "😀", "_", "1", "\t",
            "\"k\" = \"v\";", "x = y;\n", "\u{301}",
        ]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let new = StringsFile.keys(Array(text.utf8))
            let old = Self.oldKeys(text)
            switch (new, old) {
            case (.success(let a), .success(let b)):
                #expect(a.map(\.key) == b.map(\.key) && a.map(\.line) == b.map(\.line), "\(text.debugDescription)")
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(text.debugDescription)")
            default: Issue.record("\(text.debugDescription): \(new) against \(old)")
            }
        }
    }

    static func oldKeys(_ text: String) -> Result<[(key: String, line: Int)], StringsFile.Failure> {
        var scanner = OldScanner(Array(text.unicodeScalars))
        var out: [(String, Int)] = []
        while true {
            scanner.skipSpaceAndComments()
            if scanner.atEnd { break }
            let line = scanner.line
            guard let key = scanner.word() else {
                return .failure(StringsFile.Failure(line: scanner.line, message: scanner.unexpected("a key")))
            }
            scanner.skipSpaceAndComments()
            if scanner.take(";") {
                out.append((key, line))
                continue
            }
            guard scanner.take("=") else {
                return .failure(StringsFile.Failure(line: scanner.line, message: scanner.unexpected("=") + " after \"\(key)\""))
            }
            scanner.skipSpaceAndComments()
            guard scanner.word(keeping: false) != nil else {
                return .failure(StringsFile.Failure(line: scanner.line, message: scanner.unexpected("a value")))
            }
            scanner.skipSpaceAndComments()
            guard scanner.take(";") else { return .failure(StringsFile.Failure(line: scanner.line, message: scanner.unexpected(";"))) }
            out.append((key, line))
        }
        return .success(out)
    }

    struct OldScanner {
        let s: [Unicode.Scalar]
        var i = 0
        var line = 1
        init(_ s: [Unicode.Scalar]) { self.s = s }
        var atEnd: Bool { i >= s.count }

        mutating func advance() {
            if s[i] == "\n" { line += 1 }
            i += 1
        }

        mutating func take(_ c: Unicode.Scalar) -> Bool {
            guard !atEnd, s[i] == c else { return false }
            advance()
            return true
        }

        func unexpected(_ wanted: String) -> String {
            atEnd ? "the file ends where \(wanted) was expected" : "\"\(Character(s[i]))\" where \(wanted) was expected"
        }

        mutating func skipSpaceAndComments() {
            while !atEnd {
                if s[i].isASCII ? (s[i] == " " || (s[i].value >= 0x09 && s[i].value <= 0x0D)) : s[i].properties.isWhitespace {
                    advance()
                } else if s[i] == "/", i + 1 < s.count, s[i + 1] == "/" {
                    while !atEnd, s[i] != "\n" { advance() }
                } else if s[i] == "/", i + 1 < s.count, s[i + 1] == "*" {
                    advance()
                    advance()
                    while !atEnd, !(s[i] == "*" && i + 1 < s.count && s[i + 1] == "/") { advance() }
                    if !atEnd {
                        advance()
                        advance()
                    }
                } else {
                    return
                }
            }
        }

        /// A quoted string (escapes kept as written but for `\"`) or a bare word. Not `keeping`
        /// (a value: only that it is there matters), it is read past and "" stands for it.
        mutating func word(keeping: Bool = true) -> String? {
            guard !atEnd else { return nil }
            var out = String.UnicodeScalarView()
            if s[i] == "\"" {
                advance()
                while !atEnd, s[i] != "\"" {
                    if s[i] == "\\", i + 1 < s.count {
                        advance()
                    }
                    if keeping { out.append(s[i]) }
                    advance()
                }
                guard take("\"") else { return nil }
                return String(out)
            }
            let start = i
            while !atEnd, StringsFile.Scanner.isWordScalar(s[i]) {
                if keeping { out.append(s[i]) }
                advance()
            }
            return i == start ? nil : String(out)
        }
    }
}
