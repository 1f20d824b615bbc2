/// A well-formedness check for XML documents reswatch does not otherwise read (an Icon
/// Composer bundle's SVG layers): one element at the top, tags that nest and close, quoted
/// attributes, comments, CDATA, processing instructions and a DOCTYPE skipped whole. No entity is
/// expanded and nothing is fetched, so a hostile file costs one linear pass; nesting deeper than
/// `maximumDepth` is refused instead of followed.
public enum XMLWellFormedness {
    public static let maximumDepth = 1_000

    public struct Problem: Error, Sendable, Hashable {
        public let line: Int
        public let message: String
    }

    /// nil when the bytes are a well-formed document whose top element is `root` (any namespace
    /// prefix), else the first problem and its line.
    public static func check(_ bytes: [UInt8], root expected: String? = nil) -> Problem? {
        var scanner = Scanner(bytes: bytes)
        return scanner.document(expected: expected)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        var line = 1

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte-order mark is not content.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        }

        func problem(_ message: String) -> Problem { Problem(line: line, message: message) }

        mutating func advance(_ n: Int = 1) {
            for _ in 0..<n where i < bytes.count {
                if bytes[i] == UInt8(ascii: "\n") { line += 1 }
                i += 1
            }
        }

        func at(_ text: String) -> Bool { bytes[i...].starts(with: text.utf8) }

        /// Skips to just past `end`; false when the document ends first.
        mutating func skip(past end: String) -> Bool {
            let needle = Array(end.utf8)
            while i < bytes.count {
                if bytes[i] == needle[0], bytes[i...].starts(with: needle) {
                    advance(needle.count)
                    return true
                }
                advance()
            }
            return false
        }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        static func isNameByte(_ b: UInt8) -> Bool {
            !isSpace(b) && b != UInt8(ascii: ">") && b != UInt8(ascii: "/") && b != UInt8(ascii: "=") && b != UInt8(ascii: "<")
                && b != UInt8(ascii: "\"") && b != UInt8(ascii: "'")
        }

        mutating func name() -> [UInt8] {
            let start = i
            while i < bytes.count, Self.isNameByte(bytes[i]) { advance() }
            return Array(bytes[start..<i])
        }

        mutating func spaces() { while i < bytes.count, Self.isSpace(bytes[i]) { advance() } }

        mutating func document(expected: String?) -> Problem? {
            var stack: [[UInt8]] = []
            var sawRoot = false
            while i < bytes.count {
                if bytes[i] != UInt8(ascii: "<") {
                    if stack.isEmpty, !Self.isSpace(bytes[i]) { return problem("text outside the top element") }
                    advance()
                    continue
                }
                if at("<!--") {
                    guard skip(past: "-->") else { return problem("a comment that never ends") }
                } else if at("<![CDATA[") {
                    guard !stack.isEmpty else { return problem("CDATA outside the top element") }
                    guard skip(past: "]]>") else { return problem("a CDATA section that never ends") }
                } else if at("<?") {
                    guard skip(past: "?>") else { return problem("a processing instruction that never ends") }
                } else if at("<!") {
                    guard stack.isEmpty, !sawRoot else { return problem("a declaration inside the document") }
                    // A DOCTYPE may hold an internal subset in [ … ]: skip it whole, expand nothing.
                    var bracket = 0
                    advance(2)
                    while i < bytes.count, !(bytes[i] == UInt8(ascii: ">") && bracket == 0) {
                        if bytes[i] == UInt8(ascii: "[") { bracket += 1 }
                        if bytes[i] == UInt8(ascii: "]") { bracket -= 1 }
                        advance()
                    }
                    guard i < bytes.count else { return problem("a declaration that never ends") }
                    advance()
                } else if at("</") {
                    advance(2)
                    let closing = name()
                    spaces()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { return problem("a closing tag that never ends") }
                    advance()
                    guard let open = stack.popLast() else {
                        return problem("</\(String(decoding: closing, as: UTF8.self))> closes nothing")
                    }
                    guard open == closing else {
                        return problem(
                            "</\(String(decoding: closing, as: UTF8.self))> closes <\(String(decoding: open, as: UTF8.self))>")
                    }
                } else {
                    advance()
                    let tag = name()
                    guard !tag.isEmpty else { return problem("'<' that starts no tag") }
                    if stack.isEmpty {
                        guard !sawRoot else { return problem("a second top element") }
                        sawRoot = true
                        if let expected {
                            let local = tag.split(separator: UInt8(ascii: ":")).last.map { String(decoding: $0, as: UTF8.self) } ?? ""
                            guard local == expected else {
                                return problem("the top element is <\(String(decoding: tag, as: UTF8.self))>, not <\(expected)>")
                            }
                        }
                    }
                    if let p = attributes() { return p }
                    if at("/>") {
                        advance(2)
                    } else {
                        advance()
                        guard stack.count < maximumDepth else { return problem("elements nested deeper than \(maximumDepth)") }
                        stack.append(tag)
                    }
                }
            }
            if let open = stack.last { return problem("<\(String(decoding: open, as: UTF8.self))> is never closed") }
            return sawRoot ? nil : problem(bytes.isEmpty ? "empty file" : "no element")
        }

        /// Attributes up to `>` or `/>` (left unread).
        mutating func attributes() -> Problem? {
            while true {
                spaces()
                guard i < bytes.count else { return problem("a tag that never ends") }
                if bytes[i] == UInt8(ascii: ">") || at("/>") { return nil }
                guard !name().isEmpty else { return problem("unexpected '\(Character(Unicode.Scalar(bytes[i])))' in a tag") }
                spaces()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { return problem("an attribute without a value") }
                advance()
                spaces()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                    return problem("an attribute value without quotes")
                }
                let quote = bytes[i]
                advance()
                while i < bytes.count, bytes[i] != quote {
                    if bytes[i] == UInt8(ascii: "<") { return problem("'<' inside an attribute value") }
                    advance()
                }
                guard i < bytes.count else { return problem("an attribute value that never ends") }
                advance()
            }
        }
    }
}
