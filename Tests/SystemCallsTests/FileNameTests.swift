import SystemCalls
import Testing

/// File names are bytes: the string form maps back to exactly the same bytes, for every input.
@Suite struct FileNameTests {
    @Test func everyByteStringRoundTrips() {
        var rng = SystemRandomNumberGenerator()
        var inputs: [[UInt8]] = [
            [0xFF], [0xC3], [0xC3, 0x28], [0xE2, 0x82], Array("Icon-60@2x.png".utf8), Array("café".utf8),
            [0xF4, 0x8F, 0xBC, 0x80],  // U+10FF00 itself, the escape range
            [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80],  // an encoded surrogate (invalid)
        ]
        for _ in 0..<2000 { inputs.append((0..<Int.random(in: 1...24, using: &rng)).map { _ in UInt8.random(in: 1...255, using: &rng) }) }
        for bytes in inputs {
            let name = FileName.decode(bytes)
            #expect(FileName.bytes(of: name) == bytes, "\(bytes)")
        }
    }

    /// The decoding fast path answers what validating the bytes answers: the same string for
    /// valid UTF-8 (ASCII, two to four bytes a scalar, U+FFFD itself, U+100000), and the escaped
    /// form for everything else (cut sequences, overlong forms, surrogates, past U+10FFFF, and
    /// U+10FFxx, the escapes' own range).
    @Test func theFastPathAgreesWithValidation() {
        var rng = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array("Icon-60@2x.png".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), Array("\u{FFFD}".utf8), [0x2E],
            [0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xEF, 0xBF], [0x80],
            [0xF4, 0x80, 0x80, 0x80], [0xF4, 0x8F, 0xBC, 0x80], [0xF4, 0x90, 0x80, 0x80],
        ]
        var inputs: [[UInt8]] = [[]]
        for _ in 0..<4000 {
            inputs.append((0..<Int.random(in: 1...6, using: &rng)).flatMap { _ in pieces.randomElement(using: &rng)! })
        }
        for bytes in inputs {
            let name = FileName.decode(bytes)
            if let valid = String(validating: bytes, as: UTF8.self), !valid.unicodeScalars.contains(where: { $0.value >= 0x10FF00 }) {
                #expect(name == valid && Array(name.utf8) == bytes, "\(bytes)")
            } else {
                #expect(Array(name.utf8) != bytes, "\(bytes): not UTF-8, or in the escape range, so escaped")
            }
            #expect(FileName.bytes(of: name) == bytes, "\(bytes)")
        }
    }

    @Test func distinctBytesGiveDistinctNames() {
        #expect(FileName.decode([0x61, 0xFF]) != FileName.decode([0x61, 0xFE]))
        #expect(FileName.decode([0xF4, 0x8F, 0xBC, 0xFF]) != FileName.decode([0xFF]))
    }

    @Test func validUTF8IsUnchanged() {
        #expect(FileName.decode(Array("AppIcon.appiconset/Icon 1024.png".utf8)) == "AppIcon.appiconset/Icon 1024.png")
    }

    @Test func outputEscapesUndecodableBytesAndControls() {
        let name = FileName.decode(Array("a".utf8) + [0xFF] + Array("\n\u{1B}[31m\u{202E}b".utf8))
        #expect(FileName.escapingUndecodable(name) == "a\\xFF\n\u{1B}[31m\u{202E}b")
        #expect(FileName.display(name) == "a\\xFF\\n\\x1B[31m\\u{202E}b")
        #expect(FileName.display("plain name.png") == "plain name.png")
    }

    /// A path a client sends back as the daemon wrote it (`\xHH` for a byte that is not UTF-8)
    /// names the same bytes; text that only looks like an escape below 0x80 stays as it is.
    @Test func escapedTextReadsBackAsItsBytes() {
        for bytes: [UInt8] in [[0x61, 0xFF, 0x62], [0xC3, 0x28], [0xF4, 0x8F, 0xBF, 0xBF, 0x2F, 0x80], Array("plain/é.png".utf8)] {
            let name = FileName.decode(bytes)
            #expect(FileName.unescapingUndecodable(FileName.escapingUndecodable(name)) == name, "\(bytes)")
            #expect(FileName.bytes(of: FileName.unescapingUndecodable(FileName.escapingUndecodable(name))) == bytes)
            #expect(FileName.unescapingUndecodable(name) == name, "the daemon's own form passes as it is")
        }
        #expect(FileName.unescapingUndecodable("caf\\xC3\\xA9") == "café", "valid UTF-8 spelt out is the same name")
        #expect(FileName.unescapingUndecodable("a\\xff") == FileName.decode([0x61, 0xFF]), "either case")
        #expect(FileName.unescapingUndecodable("a\\x41\\x7F\\xZZ\\x8") == "a\\x41\\x7F\\xZZ\\x8", "not an escape the daemon writes")
    }
}
