/// File names are bytes; Swift strings are Unicode. A name that is not valid UTF-8 must neither be
/// decoded lossily (two names would collapse into one, and a file that exists would look missing)
/// nor crash anything. Names are kept as strings that map back to the exact bytes:
/// each byte that is not part of valid UTF-8 becomes the private-use scalar U+10FF00 + byte, and a
/// real U+10FF00…U+10FFFF in a name is escaped byte by byte the same way, so the mapping is a
/// bijection. Every libc call on a path goes through `withCString`; output shows such bytes as `\xHH`.
public enum FileName {
    static let escapeBase: UInt32 = 0x10FF00

    /// The string for a name's bytes (exactly reversible with `bytes(of:)`).
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // ASCII (nearly every name): valid as it is. `String(validating:as:)` takes the generic
        // validator, 1,200 instructions a name (2 % of a check, for every name a walk lists).
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        // Fast path: valid UTF-8 without a 0xF4 lead byte (the only way to spell U+10FFxx).
        if !bytes.contains(0xF4), let s = String(validating: bytes, as: UTF8.self) { return s }
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        func escape(_ range: Range<Int>) { for i in range { scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!) } }
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if scalar.value >= escapeBase && scalar.value <= escapeBase + 0xFF {
                    escape(offset..<offset + encoded.count)
                } else {
                    scalars.append(scalar)
                }
                offset += encoded.count
            case .error(let length):
                escape(offset..<offset + length)
                offset += length
            case .emptyInput:
                break loop
            }
        }
        return String(scalars)
    }

    public static func decode(_ bytes: [UInt8]) -> String { bytes.withUnsafeBufferPointer { decode($0) } }

    /// The bytes a name string stands for.
    public static func bytes(of name: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if scalar.value >= escapeBase && scalar.value <= escapeBase + 0xFF {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return out
    }

    /// Calls `body` with the NUL-terminated bytes of a path.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        if !containsEscapes(path) { return try path.withCString(body) }
        var raw = bytes(of: path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    static func containsEscapes(_ s: String) -> Bool {
        // U+10FFxx is F4 8F BC..BF xx in UTF-8. The byte test runs for every path opened or
        // stat'ed: a loop over the string's storage, not the generic `utf8.contains` (2 % of a
        // scan's instructions, callgrind).
        let maybe = s.utf8.withContiguousStorageIfAvailable { $0.contains(0xF4) } ?? s.utf8.contains(0xF4)
        return maybe && s.unicodeScalars.contains { $0.value >= escapeBase && $0.value <= escapeBase + 0xFF }
    }

    /// For machine-readable output (JSON): each byte that is not UTF-8 as the text `\xHH`.
    public static func escapingUndecodable(_ s: String) -> String {
        guard containsEscapes(s) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            if scalar.value >= escapeBase && scalar.value <= escapeBase + 0xFF {
                out += "\\x" + hex(UInt8(scalar.value - escapeBase))
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The reverse of `escapingUndecodable`, for a path a client sends back: each `\xHH` with HH
    /// 80…FF (the only bytes that text escapes) stands for that byte. The bytes are decoded again,
    /// so `\xC3\xA9` (valid UTF-8 spelt out) names the same file as `é`, as one string.
    public static func unescapingUndecodable(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "\\")) else { return s }
        // The string's bytes (its U+10FFxx scalars, escapes already, are their bytes), with
        // each `\xHH` of HH 80…FF replaced by that byte.
        let raw = bytes(of: s)
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        func hexValue(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "\\"), i + 3 < raw.count, raw[i + 1] == UInt8(ascii: "x"), let high = hexValue(raw[i + 2]),
                let low = hexValue(raw[i + 3]), high >= 8
            {
                out.append(high << 4 | low)
                i += 4
            } else {
                out.append(raw[i])
                i += 1
            }
        }
        return decode(out)
    }

    /// For a terminal or a CI log: undecodable bytes and control characters (newline, ESC, …, and
    /// the Unicode line separators and bidirectional overrides) are shown escaped, so a file name
    /// can neither forge a line nor recolour the output.
    public static func display(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            let v = scalar.value
            if v >= escapeBase && v <= escapeBase + 0xFF {
                out += "\\x" + hex(UInt8(v - escapeBase))
            } else if v == 0x0A {
                out += "\\n"
            } else if v == 0x0D {
                out += "\\r"
            } else if v == 0x09 {
                out += "\\t"
            } else if v < 0x20 || (0x7F...0x9F).contains(v) {
                out += "\\x" + hex(UInt8(v))
            } else if needsEscape(scalar) {
                out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) || (v >= escapeBase && v <= escapeBase + 0xFF)
    }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }
}
