/// Literal, byte-for-byte text search and replacement for the project files' own syntax
/// (`$(inherited)`, `~ipad`, `<BuildActionEntry`): what Xcode's parsers compare is bytes, and
/// Foundation's `replacingOccurrences`/`range(of:)` bridge every call through NSString (on a
/// large project they were a fifth of a check; issue 63).
enum LiteralText {
    /// `text` with every occurrence of `token` (non-empty) replaced by `replacement`, left to right,
    /// occurrences not overlapping.
    static func replacing(_ token: String, with replacement: String, in text: String) -> String {
        let needle = Array(token.utf8)
        guard !needle.isEmpty else { return text }
        var text = text
        return text.withUTF8 { bytes -> String in
            guard firstOffset(of: needle, in: bytes, from: 0) != nil else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var i = 0
            while let found = firstOffset(of: needle, in: bytes, from: i) {
                out.append(contentsOf: bytes[i..<found])
                out.append(contentsOf: replacement.utf8)
                i = found + needle.count
            }
            out.append(contentsOf: bytes[i...])
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The UTF-8 offset of the first `needle` at or after `start`.
    static func firstOffset(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var i = start
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < needle.count, bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// The range of the first `token` in `text` at or after `from`, compared byte for byte.
    static func range(of token: String, in text: Substring) -> Range<String.Index>? {
        let needle = Array(token.utf8)
        let utf8 = text.utf8
        guard let first = needle.first, !needle.isEmpty else { return nil }
        var i = utf8.startIndex
        while let start = utf8[i...].firstIndex(of: first) {
            var a = start
            var matched = true
            for byte in needle {
                guard a < utf8.endIndex, utf8[a] == byte else {
                    matched = false
                    break
                }
                a = utf8.index(after: a)
            }
            if matched { return start..<a }
            i = utf8.index(after: start)
        }
        return nil
    }
}
