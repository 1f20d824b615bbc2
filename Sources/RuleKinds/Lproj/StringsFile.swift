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
        var scanner = Scanner(Array(text.unicodeScalars))
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

    struct Scanner {
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
            while !atEnd, Self.isWordScalar(s[i]) {
                if keeping { out.append(s[i]) }
                advance()
            }
            return i == start ? nil : String(out)
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
