/// The text form of a composed module that the binary holds for its built-in modules
/// (`ShippedRules.precompiled`): decoding it is one pass over bytes, where composing the YAML
/// through Yams was half of a `check`'s fixed cost (issue 63). One node per line, children after
/// their parent, in order:
///
///     s<line> <column> <text>      a scalar (no space and no text when empty); `\` is `\\`, and every byte outside 0x20…0x7E `\xHH`
///                                  (a last space too: no line of the form ends in white space)
///     q<line> <column> <count>     a list, then its items
///     m<line> <column> <count>     a mapping, then each key and its value
///     o<line> <column>             a node of none of these kinds
extension ModuleNode {
    public var encoded: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func append(to out: inout [UInt8]) {
        func head(_ tag: Character, _ rest: String = "") {
            out.append(contentsOf: "\(tag)\(mark.line) \(mark.column)\(rest)".utf8)
        }
        switch self {
        case .scalar(let text, _):
            head("s", text.isEmpty ? "" : " ")
            let bytes = Array(text.utf8)
            for (i, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: "\\") {
                    out.append(contentsOf: [byte, byte])
                } else if (0x21...0x7E).contains(byte) || (byte == 0x20 && i < bytes.count - 1) {
                    out.append(byte)
                } else {
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
            }
            out.append(UInt8(ascii: "\n"))
        case .sequence(let items, _):
            head("q", " \(items.count)\n")
            for item in items { item.append(to: &out) }
        case .mapping(let pairs, _):
            head("m", " \(pairs.count)\n")
            for pair in pairs {
                pair.key.append(to: &out)
                pair.value.append(to: &out)
            }
        case .other:
            head("o", "\n")
        }
    }

    /// Decodes `encoded`; nil for text that is not exactly one node in that form (never traps:
    /// counts are bounded by the lines left, nesting by `maxDepth`).
    public init?(encoded: String) {
        var text = encoded
        let node: ModuleNode? = text.withUTF8 { bytes in
            var reader = EncodedReader(bytes: bytes)
            guard let node = reader.node(depth: 0), reader.position == bytes.count else { return nil }
            return node
        }
        guard let node else { return nil }
        self = node
    }

    static let maxDepth = 256
}

/// Reads the lines of `ModuleNode.encoded`.
private struct EncodedReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func node(depth: Int) -> ModuleNode? {
        guard depth < ModuleNode.maxDepth, position < bytes.count else { return nil }
        let tag = bytes[position]
        position += 1
        guard let line = number(), skip(UInt8(ascii: " ")), let column = number() else { return nil }
        let mark = ModuleNode.Mark(line: line, column: column)
        switch tag {
        case UInt8(ascii: "s"):
            if skip(UInt8(ascii: "\n")) { return .scalar("", mark) }
            guard skip(UInt8(ascii: " ")), let text = scalarText(), !text.isEmpty else { return nil }
            return .scalar(text, mark)
        case UInt8(ascii: "q"):
            guard let count = childCount() else { return nil }
            var items: [ModuleNode] = []
            items.reserveCapacity(count)
            for _ in 0..<count {
                guard let item = node(depth: depth + 1) else { return nil }
                items.append(item)
            }
            return .sequence(items, mark)
        case UInt8(ascii: "m"):
            guard let count = childCount() else { return nil }
            var pairs: [ModuleNode.Pair] = []
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = node(depth: depth + 1), let value = node(depth: depth + 1) else { return nil }
                pairs.append(ModuleNode.Pair(key: key, value: value))
            }
            return .mapping(pairs, mark)
        case UInt8(ascii: "o"):
            return skip(UInt8(ascii: "\n")) ? .other(mark) : nil
        default:
            return nil
        }
    }

    /// ` <count>\n`, where every child needs a line of its own (a larger count is not this form).
    private mutating func childCount() -> Int? {
        guard skip(UInt8(ascii: " ")), let count = number(), skip(UInt8(ascii: "\n")) else { return nil }
        return count <= bytes.count - position ? count : nil
    }

    private mutating func skip(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// A decimal of at most 9 digits.
    private mutating func number() -> Int? {
        var value = 0
        let start = position
        while position < bytes.count, position - start < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        return position > start ? value : nil
    }

    /// The rest of a scalar's line, unescaped; nil when an escape is malformed.
    private mutating func scalarText() -> String? {
        let start = position
        var escaped = false
        while position < bytes.count, bytes[position] != UInt8(ascii: "\n") {
            if bytes[position] == UInt8(ascii: "\\") { escaped = true }
            position += 1
        }
        guard position < bytes.count else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
        position += 1
        // Unescaped, the text is printable ASCII. Escaped bytes that are not UTF-8 read as U+FFFD:
        // the form is written from Swift strings, and a damaged one gives another tree, never a trap.
        // (`String(validating:)` was three quarters of decoding the built-in modules.)
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            guard raw[i] == UInt8(ascii: "\\") else {
                out.append(raw[i])
                i += 1
                continue
            }
            guard i + 1 < raw.count else { return nil }
            if raw[i + 1] == UInt8(ascii: "\\") {
                out.append(raw[i + 1])
                i += 2
            } else if raw[i + 1] == UInt8(ascii: "x"), i + 3 < raw.count, let high = hex(raw[i + 2]), let low = hex(raw[i + 3]) {
                out.append(high << 4 | low)
                i += 4
            } else {
                return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
