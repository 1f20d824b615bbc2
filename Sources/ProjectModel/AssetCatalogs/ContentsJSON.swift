import Foundation

/// A Contents.json as its shape check sees it: objects, arrays and strings; every other JSON
/// value (number, `true`, `false`, `null`) is `.other`. Objects keep their keys in file order.
enum ContentsValue {
    case object([(key: String, value: ContentsValue)])
    case array([ContentsValue])
    case string(String)
    case other

    subscript(_ key: String) -> ContentsValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var array: [ContentsValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// What JSONSerialization returned, in the same terms: strings stay strings, numbers and
    /// booleans (NSNumber) and null are `.other`.
    init(foundation value: Any) {
        if let s = value as? String {
            self = .string(s)
        } else if let d = value as? [String: Any] {
            self = .object(d.map { (key: $0.key, value: ContentsValue(foundation: $0.value)) })
        } else if let a = value as? [Any] {
            self = .array(a.map(ContentsValue.init(foundation:)))
        } else {
            self = .other
        }
    }
}

/// A strict reader of the JSON that Xcode and generators write into Contents.json: ASCII text,
/// strings without escapes, plain numbers, objects without repeated keys, nesting at most 32
/// deep, RFC 8259's grammar and whitespace. It answers nil for anything else (a BOM, UTF-8
/// names, an escape, an exponent, a duplicate key, any syntax error), and the caller reads such
/// a file with JSONSerialization, whose verdicts and error messages stay the reference.
///
/// Why: JSONSerialization boxed every value as `Any` and was a tenth of a cold `check`'s CPU
/// (docs/performance.md); this reader takes each byte once. Whatever it accepts is valid JSON
/// with one reading, so JSONSerialization would read it the same (ContentsJSONTests holds
/// that on every Contents.json of the corpus and on mutations of them).
struct StrictContentsJSON {
    // Internal, not private: the entries reader (ContentsEntries.swift) reads with them.
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0
    /// The line of `pos`, 1-based. A line feed can only be whitespace here (a string with a
    /// control character is outside the subset), so `skipWhitespace` counts every one.
    var line = 1
    /// The top-level key whose array's items have their lines recorded (`entryLines`).
    private let entriesKey: String?
    /// Set between reading `entriesKey` at the top level and reading its value.
    private var entriesValueNext = false
    /// The line where each item of the `entriesKey` array starts, in order.
    private var entryLines: [Int] = []
    static let maximumDepth = 32
    /// Integer and fraction digits of a number this reader takes (more: JSONSerialization's call).
    static let maximumDigits = 15
    /// Members of one object this reader takes. Repeated keys are found by comparing each new key
    /// with the ones before it; a hostile object of 200,000 keys would make that 2·10¹⁰
    /// comparisons, so a larger object is JSONSerialization's (which hashes them). Xcode writes
    /// at most a dozen.
    static let maximumMembers = 64

    init(_ bytes: UnsafeBufferPointer<UInt8>, entriesKey: String?) {
        self.bytes = bytes
        self.entriesKey = entriesKey
    }

    /// The top-level object, or nil when the text is outside the subset (or not JSON).
    static func parse(_ data: [UInt8]) -> ContentsValue? { parse(data, entriesKey: nil)?.value }

    /// The top-level object and the line where each item of its `entriesKey` array starts (none
    /// when the key is absent or not an array), or nil when the text is outside the subset. The
    /// lines come with the parse: finding them in a second pass over the bytes was a fifth of
    /// reading a Contents.json.
    static func parse(_ data: [UInt8], entriesKey: String?) -> (value: ContentsValue, entryLines: [Int])? {
        data.withUnsafeBufferPointer { buffer in
            var reader = StrictContentsJSON(buffer, entriesKey: entriesKey)
            reader.skipWhitespace()
            guard reader.peek == UInt8(ascii: "{"), let top = reader.value(depth: 0) else { return nil }
            reader.skipWhitespace()
            return reader.pos == buffer.count ? (top, reader.entryLines) : nil
        }
    }

    var peek: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x0D, 0x09: pos += 1
            case 0x0A:
                pos += 1
                line += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) -> ContentsValue? {
        guard depth < Self.maximumDepth, let c = peek else { return nil }
        switch c {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(ContentsValue.string)
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    private mutating func object(depth: Int) -> ContentsValue? {
        pos += 1  // {
        var members: [(key: String, value: ContentsValue)] = []
        // An image entry has four to seven keys: room for them at once, not grown three times.
        members.reserveCapacity(8)
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            pos += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
            // A repeated key (which one JSONSerialization keeps is its business), or more keys than
            // comparing them with each other can afford.
            guard members.count < Self.maximumMembers, !members.contains(where: { $0.key == key }) else { return nil }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return nil }
            pos += 1
            skipWhitespace()
            entriesValueNext = depth == 0 && entriesKey == key
            guard let v = value(depth: depth + 1) else { return nil }
            entriesValueNext = false
            members.append((key, v))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): pos += 1
            case UInt8(ascii: "}"):
                pos += 1
                return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> ContentsValue? {
        pos += 1  // [
        let recordLines = entriesValueNext
        entriesValueNext = false
        var items: [ContentsValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            pos += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            if recordLines { entryLines.append(line) }
            guard let v = value(depth: depth + 1) else { return nil }
            items.append(v)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): pos += 1
            case UInt8(ascii: "]"):
                pos += 1
                return .array(items)
            default: return nil
            }
        }
    }

    /// A string of printable ASCII without escapes; nil for anything else.
    mutating func string() -> String? {
        stringRange().map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
    }

    /// `string()`'s text as its range in `bytes` (the quotes left out), without making a String.
    mutating func stringRange() -> Range<Int>? {
        pos += 1  // "
        let start = pos
        while pos < bytes.count {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                pos += 1
                return start..<(pos - 1)
            }
            // A backslash, a control character or a byte beyond ASCII: left to JSONSerialization.
            guard c >= 0x20, c < 0x7F, c != UInt8(ascii: "\\") else { return nil }
            pos += 1
        }
        return nil
    }

    private mutating func literal(_ word: StaticString) -> ContentsValue? {
        let n = word.utf8CodeUnitCount
        guard bytes.count - pos >= n else { return nil }
        for i in 0..<n where bytes[pos + i] != word.utf8Start[i] { return nil }
        pos += n
        return .other
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?` with at most `maximumDigits` digits on each side; no exponent.
    private mutating func number() -> ContentsValue? {
        if peek == UInt8(ascii: "-") { pos += 1 }
        guard let first = peek, Self.isDigit(first) else { return nil }
        let integer = digits()
        guard integer <= Self.maximumDigits, first != UInt8(ascii: "0") || integer == 1 else { return nil }
        if peek == UInt8(ascii: ".") {
            pos += 1
            let fraction = digits()
            guard fraction > 0, fraction <= Self.maximumDigits else { return nil }
        }
        if let c = peek, c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { return nil }
        return .other
    }

    private mutating func digits() -> Int {
        let start = pos
        while let c = peek, Self.isDigit(c) { pos += 1 }
        return pos - start
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
