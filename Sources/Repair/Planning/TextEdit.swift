/// A replacement of a byte range of a text file: repairs edit what they must and keep every other
/// byte as the person wrote it (a plist is never re-serialised, a Contents.json never re-printed).
package struct TextEdit: Sendable, Hashable {
    package var start: Int
    package var end: Int
    package var newText: String

    package init(start: Int, end: Int, newText: String) {
        self.start = start
        self.end = end
        self.newText = newText
    }

    /// The bytes with the edits made (ranges of the original bytes, none overlapping).
    package static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for edit in edits.sorted(by: { $0.start > $1.start }) {
            out.replaceSubrange(edit.start..<edit.end, with: Array(edit.newText.utf8))
        }
        return out
    }
}

/// Where things stand in a text file, for edits that match its layout.
enum TextLayout {
    /// The offset just past the line that holds `offset`.
    static func endOfLine(_ bytes: [UInt8], after offset: Int) -> Int {
        var i = offset
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        return min(i + 1, bytes.count)
    }

    /// The indentation (spaces and tabs) of the line that holds `offset`.
    static func indentation(_ bytes: [UInt8], at offset: Int) -> String {
        var start = offset
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The line ending the file uses ("\r\n" or "\n").
    static func newline(_ bytes: [UInt8]) -> String {
        if let lf = bytes.firstIndex(of: 0x0A), lf > 0, bytes[lf - 1] == 0x0D { return "\r\n" }
        return "\n"
    }

    static func offset(of needle: String, in bytes: [UInt8], from start: Int = 0) -> Int? {
        let n = Array(needle.utf8)
        guard !n.isEmpty, bytes.count >= n.count, start <= bytes.count - n.count else { return nil }
        var i = start
        while i <= bytes.count - n.count {
            if bytes[i] == n[0], bytes[i..<(i + n.count)].elementsEqual(n) { return i }
            i += 1
        }
        return nil
    }
}
