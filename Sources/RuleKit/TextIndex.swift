import SystemCalls

/// A text file's bytes with where each line starts, and the first place of each JSON string and
/// plist key in it, so that placing many findings in one large file costs a lookup each, not a
/// scan of the file each (a Contents.json naming 20,000 missing files is 20,000 findings).
public final class TextIndex {
    public typealias Position = (line: Int, column: Int)

    public let bytes: [UInt8]
    /// Offset of each line's first byte (line 1 at index 0).
    let lineStarts: [Int]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
    }

    public var lineCount: Int { lineStarts.count }

    /// Text a finding can point into by line: no NUL in the first 8 KiB, not a binary plist.
    public private(set) lazy var isText = TextDocument.isText(bytes)

    /// 1-based UTF-16 column of the byte at `offset` on `line` (a byte-order mark is no character).
    func column(line: Int, offset: Int) -> Int {
        var from = lineStarts[line - 1]
        if from == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { from = min(3, offset) }
        return String(decoding: bytes[from..<offset], as: UTF8.self).utf16.count + 1
    }

    /// The line an offset is on.
    func line(ofOffset offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    private func end(ofLine line: Int) -> Int {
        line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
    }

    /// The earliest of `needles` on the first line from `start` (and within `limit` lines) that has any.
    public func firstPosition(containing needles: [String], from start: Int = 1, within limit: Int? = nil) -> Position? {
        let patterns = needles.map { Array($0.utf8) }.filter { !$0.isEmpty }
        guard start >= 1 else { return nil }
        let last = min(lineStarts.count, limit.map { start + $0 - 1 } ?? lineStarts.count)
        guard start <= last else { return nil }
        for line in start...last {
            let slice = bytes[lineStarts[line - 1]..<end(ofLine: line)]
            if let hit = patterns.compactMap({ Self.offset(of: $0, in: slice) }).min() { return (line, column(line: line, offset: hit)) }
        }
        return nil
    }

    /// The first character of `line` that is not blank (column 1 for a blank line or one past the end).
    public func firstColumn(line: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return 1 }
        var i = lineStarts[line - 1]
        let stop = end(ofLine: line)
        while i < stop, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        if i == stop || bytes[i] == 0x0D { return 1 }
        return column(line: line, offset: i)
    }

    /// The first character of the document that is not blank (past a byte-order mark).
    public var firstContent: Position {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        guard i < bytes.count else { return (1, 1) }
        let line = line(ofOffset: i)
        return (line, column(line: line, offset: i))
    }

    /// Where a JSON string literal (as written between its quotes) first stands, from one scan.
    public func jsonString(_ written: String) -> Position? {
        if jsonStrings == nil { jsonStrings = scanJSONStrings() }
        return jsonStrings![written]
    }

    /// Where `<key>NAME</key>` first stands in an XML plist, from one scan.
    public func plistKey(_ name: String) -> Position? {
        if plistKeys == nil { plistKeys = scanPlistKeys() }
        return plistKeys![name]
    }

    private var jsonStrings: [String: Position]?
    private var plistKeys: [String: Position]?

    private func scanJSONStrings() -> [String: Position] {
        var out: [String: Position] = [:]
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\"") else {
                i += 1
                continue
            }
            var j = i + 1
            while j < bytes.count, bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: "\n") {
                j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else {
                i = j + 1
                continue
            }
            let text = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
            if out[text] == nil {
                let line = line(ofOffset: i)
                out[text] = (line, column(line: line, offset: i))
            }
            i = j + 1
        }
        return out
    }

    private func scanPlistKeys() -> [String: Position] {
        var out: [String: Position] = [:]
        let open = Array("<key>".utf8)
        let close = Array("</key>".utf8)
        var i = 0
        while let start = Self.offset(of: open, in: bytes[i...]) {
            let nameStart = start + open.count
            guard let stop = Self.offset(of: close, in: bytes[nameStart...]) else { break }
            let name = String(decoding: bytes[nameStart..<stop], as: UTF8.self)
            if out[name] == nil {
                let line = line(ofOffset: start)
                out[name] = (line, column(line: line, offset: start))
            }
            i = stop + close.count
        }
        return out
    }

    static func offset(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        let first = needle[0]
        while i + needle.count <= haystack.endIndex {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// Which files findings can point into by line: text, not images or binary plists.
package enum TextDocument {
    package static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "heic", "heif", "pdf", "tif", "tiff", "webp", "bmp", "svgz", "car",
    ]

    /// From the name alone: a file without an extension (`iTunesArtwork`) or an image is no text.
    package static func mayBeText(_ path: String) -> Bool {
        let name = RelativePath.name(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return !imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// From the bytes: no NUL in the first 8 KiB, and not a binary plist.
    package static func isText(_ bytes: [UInt8]) -> Bool {
        !bytes.starts(with: [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]) && !bytes.prefix(8192).contains(0)  // "bplist"
    }
}
