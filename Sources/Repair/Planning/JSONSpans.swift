/// Byte spans of a JSON document's parts, for text edits that keep the rest of the file as it is
/// (Contents.json written by Xcode or by hand). A light scanner: it knows strings and nesting,
/// and gives up (nil) on anything it does not follow.
package enum JSONSpans {
    /// The spans of each element of the top-level object's array `key`.
    package static func arrayElements(in bytes: [UInt8], key: String) -> [Range<Int>]? {
        var i = skipSpace(bytes, 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            i = skipSpace(bytes, i)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "}") { return nil }
            guard let keyEnd = skipString(bytes, i) else { return nil }
            let name = String(decoding: bytes[(i + 1)..<(keyEnd - 1)], as: UTF8.self)
            i = skipSpace(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(bytes, i + 1)
            if name == key {
                guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { return nil }
                return elements(bytes, from: i)
            }
            guard let end = skipValue(bytes, i) else { return nil }
            i = skipSpace(bytes, end)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1 } else { return nil }
        }
    }

    static func elements(_ bytes: [UInt8], from open: Int) -> [Range<Int>]? {
        var out: [Range<Int>] = []
        var i = skipSpace(bytes, open + 1)
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { return out }
        while i < bytes.count {
            guard let end = skipValue(bytes, i) else { return nil }
            out.append(i..<end)
            i = skipSpace(bytes, end)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "]") { return out }
            guard bytes[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(bytes, i + 1)
        }
        return nil
    }

    static func skipSpace(_ b: [UInt8], _ start: Int) -> Int {
        var i = start
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        return i
    }

    /// The index just past the string that starts at `start`.
    static func skipString(_ b: [UInt8], _ start: Int) -> Int? {
        guard start < b.count, b[start] == UInt8(ascii: "\"") else { return nil }
        var i = start + 1
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return nil
    }

    /// The index just past the value that starts at `start`.
    static func skipValue(_ b: [UInt8], _ start: Int) -> Int? {
        guard start < b.count else { return nil }
        switch b[start] {
        case UInt8(ascii: "\""): return skipString(b, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < b.count {
                switch b[i] {
                case UInt8(ascii: "\""):
                    guard let end = skipString(b, i) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return nil
        default:
            var i = start
            while i < b.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(b[i]) { i += 1 }
            return i > start ? i : nil
        }
    }
}

/// LSP positions: 0-based lines, characters counted in UTF-16 code units.
package enum TextPosition {
    package static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, character: Int) {
        var line = 0
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let prefix = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self)
        return (line, prefix.utf16.count)
    }

    /// 1-based line of a byte offset.
    package static func line(of offset: Int, in bytes: [UInt8]) -> Int { position(of: offset, in: bytes).line + 1 }
}
