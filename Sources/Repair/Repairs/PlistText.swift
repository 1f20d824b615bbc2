import Foundation

/// Edits of an XML property list as text: a key is added where the person's file has its keys,
/// with its indentation and line endings, and every other byte stays. A plist that is not XML
/// (binary, OpenStep) is never rewritten: reswatch does not re-serialise what a person wrote.
enum PlistText {
    /// Why a plist cannot be edited as text, nil when it can.
    static func refusal(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: Array("bplist".utf8)) { return "it is a binary plist, which reswatch never rewrites (edit it in Xcode)" }
        let head = bytes.prefix(256).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        guard head.first == UInt8(ascii: "<") else { return "it is not an XML plist (OpenStep?), which reswatch never rewrites" }
        guard parse(bytes) != nil else { return "it does not parse as a property list (see its own finding)" }
        return nil
    }

    static func parse(_ bytes: [UInt8]) -> [String: Any]? {
        (try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)) as? [String: Any]
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
    }

    /// The file with `lines` (one element each, without indentation) added as the first entries of
    /// the top-level dictionary; nil when its text is not laid out as expected.
    static func addingToTopLevelDictionary(_ bytes: [UInt8], lines: [String]) -> [UInt8]? {
        guard let plist = TextLayout.offset(of: "<plist", in: bytes) else { return nil }
        let nl = TextLayout.newline(bytes)
        if let empty = TextLayout.offset(of: "<dict/>", in: bytes, from: plist),
            TextLayout.offset(of: "<dict>", in: bytes, from: plist).map({ $0 > empty }) ?? true
        {
            let indent = TextLayout.indentation(bytes, at: empty)
            let body = lines.map { indent + "\t" + $0 + nl }.joined()
            return TextEdit.apply([TextEdit(start: empty, end: empty + 7, newText: "<dict>" + nl + body + indent + "</dict>")], to: bytes)
        }
        guard let open = TextLayout.offset(of: "<dict>", in: bytes, from: plist) else { return nil }
        let afterOpen = open + 6
        // The first key's indentation, where the person's keys stand; a key on the <dict> line
        // itself ("<dict><key>…") gets the same line.
        let lineEnd = TextLayout.endOfLine(bytes, after: open)
        let restOfLine = bytes[afterOpen..<lineEnd].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if !restOfLine { return TextEdit.apply([TextEdit(start: afterOpen, end: afterOpen, newText: lines.joined())], to: bytes) }
        let indent = TextLayout.offset(of: "<key>", in: bytes, from: afterOpen).map { TextLayout.indentation(bytes, at: $0) } ?? "\t"
        let body = lines.map { indent + $0 + nl }.joined()
        return TextEdit.apply([TextEdit(start: lineEnd, end: lineEnd, newText: body)], to: bytes)
    }

    /// The file with the `<string>` value of the top-level `key` replaced by `value` (escaped);
    /// nil when the key is not written once, followed by a `<string>`, or the result would differ
    /// from the file in anything but that value.
    static func replacingString(of key: String, with value: String, in bytes: [UInt8]) -> [UInt8]? {
        let tag = "<key>\(key)</key>"
        guard let at = TextLayout.offset(of: tag, in: bytes), TextLayout.offset(of: tag, in: bytes, from: at + 1) == nil else { return nil }
        var i = at + tag.utf8.count
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        let open = Array("<string>".utf8)
        guard bytes.count >= i + open.count, bytes[i..<(i + open.count)].elementsEqual(open),
            let close = TextLayout.offset(of: "</string>", in: bytes, from: i + open.count)
        else { return nil }
        let new = TextEdit.apply([TextEdit(start: i + open.count, end: close, newText: escaped(value))], to: bytes)
        guard var before = parse(bytes), var after = parse(new), after[key] as? String == value else { return nil }
        before[key] = nil
        after[key] = nil
        guard NSDictionary(dictionary: before).isEqual(to: after) else { return nil }
        return new
    }

    /// The file without the one `<key>KEY</key>` and the scalar value after it (its whole lines
    /// when they hold nothing else); nil when the key is not written once with a scalar value, or
    /// the result parses as anything but `expected`.
    static func removingKey(_ key: String, in bytes: [UInt8], expected: [String: Any]) -> [UInt8]? {
        let tag = "<key>\(key)</key>"
        guard let at = TextLayout.offset(of: tag, in: bytes), TextLayout.offset(of: tag, in: bytes, from: at + 1) == nil else { return nil }
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var i = at + tag.utf8.count
        while i < bytes.count, blank.contains(bytes[i]) { i += 1 }
        var end: Int?
        for (open, close) in [
            ("<string>", "</string>"), ("<integer>", "</integer>"), ("<real>", "</real>"), ("<true/>", ""), ("<false/>", ""),
        ] {
            let o = Array(open.utf8)
            guard bytes.count >= i + o.count, bytes[i..<(i + o.count)].elementsEqual(o) else { continue }
            if close.isEmpty {
                end = i + o.count
            } else if let c = TextLayout.offset(of: close, in: bytes, from: i + o.count) {
                end = c + close.utf8.count
            }
            break
        }
        guard var stop = end else { return nil }
        var start = at
        // Whole lines when the key starts its line and the value ends its own.
        var lineStart = start
        while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
        var lineEnd = stop
        while lineEnd < bytes.count, bytes[lineEnd] == 0x20 || bytes[lineEnd] == 0x09 || bytes[lineEnd] == 0x0D { lineEnd += 1 }
        if (lineStart == 0 || bytes[lineStart - 1] == 0x0A), lineEnd < bytes.count, bytes[lineEnd] == 0x0A {
            start = lineStart
            stop = lineEnd + 1
        }
        let new = TextEdit.apply([TextEdit(start: start, end: stop, newText: "")], to: bytes)
        guard let parsed = parse(new), NSDictionary(dictionary: parsed).isEqual(to: expected) else { return nil }
        return new
    }
}
