import ProjectModel

/// A `.strings` file as Xcode reads it: UTF-8, or UTF-16 with a byte-order mark (the encodings
/// Xcode's CopyStringsFile accepts: requirements-2026.md 7.3), holding `"key" = "value";` pairs
/// (quoted or bare words, `/* */` and `//` comments, backslash escapes).
enum StringsFile {
    struct Failure: Error, Equatable {
        let line: Int
        let message: String
    }

    /// The keys and the line each starts on, or why the file is not a `.strings` file.
    static func keys(_ bytes: [UInt8]) -> Result<[(key: String, line: Int)], Failure> {
        // A compiled (binary) or XML property list is a .strings file too: what Xcode writes with
        // STRINGS_FILE_OUTPUT_ENCODING = binary, and what iOS reads.
        let start = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if bytes.starts(with: Array("bplist".utf8)) || start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8)) {
            switch PropertyListReader.parse(bytes) {
            case .success(let (value, _)):
                guard let dict = value.dictionary else {
                    return .failure(Failure(line: 1, message: "a property list that is not a dictionary"))
                }
                return .success(dict.keys.sorted().map { ($0, 1) })
            case .failure(let error):
                return .failure(Failure(line: error.line ?? 1, message: "a property list that does not parse: \(error.description)"))
            }
        }
        guard let text = decode(bytes) else {
            return .failure(
                Failure(
                    line: 1,
                    message:
                        "not UTF-8, and no byte-order mark says UTF-16: Xcode cannot decode it (\"could not decode input file using specified encoding\")"
                ))
        }
        var scanner = Scanner(text)
        var out: [(String, Int)] = []
        while true {
            scanner.skipSpaceAndComments()
            if scanner.atEnd { break }
            let line = scanner.line
            guard let key = scanner.word() else { return .failure(Failure(line: scanner.line, message: scanner.unexpected("a key"))) }
            scanner.skipSpaceAndComments()
            if scanner.take(";") {  // `"key";` stands for `"key" = "key";`
                out.append((key, line))
                continue
            }
            guard scanner.take("=") else {
                return .failure(Failure(line: scanner.line, message: scanner.unexpected("=") + " after \"\(key)\""))
            }
            scanner.skipSpaceAndComments()
            guard scanner.word(keeping: false) != nil else {
                return .failure(Failure(line: scanner.line, message: scanner.unexpected("a value")))
            }
            scanner.skipSpaceAndComments()
            guard scanner.take(";") else { return .failure(Failure(line: scanner.line, message: scanner.unexpected(";"))) }
            out.append((key, line))
        }
        return .success(out)
    }

    static func decode(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 2
            while i + 1 < bytes.count {
                units.append(little ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(validating: body, as: UTF8.self)
    }

    /// Reads the text's UTF-8 bytes: every mark of the syntax is ASCII, and a key is its bytes
    /// between the quotes (scalar by scalar, a large app's tables were a sixth of its check).
    struct Scanner {
        let s: [UInt8]
        var i = 0
        var line = 1
        init(_ text: String) { s = Array(text.utf8) }
        var atEnd: Bool { i >= s.count }

        mutating func advance() {
            if s[i] == 0x0A { line += 1 }
            i += 1
        }

        mutating func take(_ c: Unicode.Scalar) -> Bool {
            guard !atEnd, s[i] == UInt8(c.value) else { return false }
            advance()
            return true
        }

        /// The scalar at byte `at` (the text is valid UTF-8) and its length in bytes.
        func scalar(at: Int) -> (Unicode.Scalar, Int) {
            let lead = s[at]
            if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length where at + k < s.count { value = value << 6 | UInt32(s[at + k] & 0x3F) }
            return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
        }

        func unexpected(_ wanted: String) -> String {
            atEnd ? "the file ends where \(wanted) was expected" : "\"\(Character(scalar(at: i).0))\" where \(wanted) was expected"
        }

        mutating func skipSpaceAndComments() {
            while !atEnd {
                let b = s[i]
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                    advance()
                } else if b >= 0x80, case let (c, length) = scalar(at: i), c.properties.isWhitespace {
                    i += length
                } else if b == UInt8(ascii: "/"), i + 1 < s.count, s[i + 1] == UInt8(ascii: "/") {
                    while !atEnd, s[i] != 0x0A { advance() }
                } else if b == UInt8(ascii: "/"), i + 1 < s.count, s[i + 1] == UInt8(ascii: "*") {
                    advance()
                    advance()
                    while !atEnd, !(s[i] == UInt8(ascii: "*") && i + 1 < s.count && s[i + 1] == UInt8(ascii: "/")) { advance() }
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
            if s[i] == UInt8(ascii: "\"") {
                advance()
                let start = i
                var escaped = false
                while !atEnd, s[i] != UInt8(ascii: "\"") {
                    if s[i] == UInt8(ascii: "\\"), i + 1 < s.count {
                        escaped = true
                        advance()
                    }
                    advance()
                }
                let end = i
                guard take("\"") else { return nil }
                guard keeping else { return "" }
                guard escaped else { return String(decoding: s[start..<end], as: UTF8.self) }
                var out: [UInt8] = []
                var k = start
                while k < end {
                    if s[k] == UInt8(ascii: "\\"), k + 1 < end { k += 1 }
                    out.append(s[k])
                    k += 1
                }
                return String(decoding: out, as: UTF8.self)
            }
            let start = i
            while !atEnd {
                let (c, length) = scalar(at: i)
                guard Self.isWordScalar(c) else { break }
                i += length
            }
            guard i > start else { return nil }
            return keeping ? String(decoding: s[start..<i], as: UTF8.self) : ""
        }

        /// A scalar of a bare word: a letter, a digit or one of `_$+/:.-`.
        static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
            if c.isASCII {
                let v = c.value
                return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
                    || "_$+/:.-".unicodeScalars.contains(c)
            }
            return c.properties.isAlphabetic
        }
    }
}
