import Foundation

/// Edits of an asset set's Contents.json as text, entry by entry: the layout Xcode (or a person,
/// or a generator) wrote stays, only the value that changes is replaced.
enum ContentsText {
    /// The entries of `images` with their byte spans and parsed objects.
    static func entries(_ bytes: [UInt8]) -> [(span: Range<Int>, object: [String: Any])]? {
        guard let spans = JSONSpans.arrayElements(in: bytes, key: "images") else { return nil }
        return spans.map { span in (span, ((try? JSONSerialization.jsonObject(with: Data(bytes[span]))) as? [String: Any]) ?? [:]) }
    }

    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Every entry's `"filename"` that is `old` rewritten to `new`; nil when none is, or when the
    /// name is written in a way this does not follow (escapes).
    static func renamingFile(_ bytes: [UInt8], from old: String, to new: String) -> [UInt8]? {
        guard let entries = entries(bytes) else { return nil }
        var edits: [TextEdit] = []
        for (span, object) in entries where object["filename"] as? String == old {
            guard let key = TextLayout.offset(of: "\"filename\"", in: Array(bytes[span])).map({ span.lowerBound + $0 }),
                let value = TextLayout.offset(of: quoted(old), in: bytes, from: key + 10), value < span.upperBound
            else { return nil }
            edits.append(TextEdit(start: value, end: value + quoted(old).utf8.count, newText: quoted(new)))
        }
        return edits.isEmpty ? nil : TextEdit.apply(edits, to: bytes)
    }

    /// `"filename" : NAME` added first in the entry at `span` (an entry without a filename).
    static func naming(_ bytes: [UInt8], entry span: Range<Int>, _ name: String) -> [UInt8] {
        let indent = TextLayout.indentation(bytes, at: span.lowerBound) + "  "
        let nl = TextLayout.newline(bytes)
        return TextEdit.apply(
            [TextEdit(start: span.lowerBound + 1, end: span.lowerBound + 1, newText: "\(nl)\(indent)\"filename\" : \(quoted(name)),")],
            to: bytes)
    }

    /// A new entry (its keys in order) at the end of `images`; nil when the list is not followed.
    static func appendingEntry(_ bytes: [UInt8], _ fields: [(String, String)]) -> [UInt8]? {
        guard let spans = JSONSpans.arrayElements(in: bytes, key: "images") else { return nil }
        let nl = TextLayout.newline(bytes)
        if let last = spans.last {
            let indent = TextLayout.indentation(bytes, at: last.lowerBound)
            let body = fields.map { "\(indent)  \(quoted($0.0)) : \(quoted($0.1))" }.joined(separator: ",\(nl)")
            return TextEdit.apply(
                [TextEdit(start: last.upperBound, end: last.upperBound, newText: ",\(nl)\(indent){\(nl)\(body)\(nl)\(indent)}")], to: bytes)
        }
        // An empty list: the entry goes right after its "[".
        guard let key = TextLayout.offset(of: "\"images\"", in: bytes), let open = TextLayout.offset(of: "[", in: bytes, from: key) else {
            return nil
        }
        let indent = TextLayout.indentation(bytes, at: key) + "  "
        let body = fields.map { "\(indent)  \(quoted($0.0)) : \(quoted($0.1))" }.joined(separator: ",\(nl)")
        return TextEdit.apply(
            [TextEdit(start: open + 1, end: open + 1, newText: "\(nl)\(indent){\(nl)\(body)\(nl)\(indent)}\(nl)")], to: bytes)
    }
}
