import Foundation

/// Compact JSON with sorted keys: byte for byte what `JSONEncoder` writes with `[.sortedKeys,
/// .withoutEscapingSlashes]`, without its cost. Every published change encodes a
/// `diagnostics/changed` and a `status/changed` line on the daemon's actor after the batch has
/// settled; through `JSONEncoder` that was some 0.2 ms of each change's latency (its dynamic casts
/// for the types it writes its own way, boxed containers, a copy of the result), docs/performance.md.
///
/// `encode` answers nil for what it does not write the way `JSONEncoder` would, and the caller
/// falls back to `JSONEncoder`: the types `JSONEncoder` special-cases (`Date`, `Data`, `URL`,
/// `Decimal`), a non-finite number, a key written twice, a super encoder, a value that throws.
/// `CompactJSONTests` compares the two on every protocol type and on hostile strings and numbers.
package enum CompactJSON {
    package static func encode<T: Encodable>(_ value: T) -> [UInt8]? {
        let state = State()
        guard let node = try? Node.of(value, state), !state.unsupported else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(512)
        guard node.write(to: &out) else { return nil }
        return out
    }

    /// Set by any path the encoder does not take as `JSONEncoder` would.
    final class State {
        var unsupported = false
    }

    final class Object {
        var entries: [(key: String, value: Node)] = []
    }

    final class Array {
        var items: [Node] = []
    }

    enum Node {
        case null
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case float(Float)
        case string(String)
        case object(Object)
        case array(Array)
        /// A nested encoder that wrote nothing (`JSONEncoder` writes an empty object).
        case empty

        /// The node `value` encodes to.
        static func of<T: Encodable>(_ value: T, _ state: State) throws -> Node {
            // The common leaves without an encoder of their own.
            if T.self == String.self { return .string(value as! String) }
            if T.self == Int.self { return .int(Int64(value as! Int)) }
            if T.self == Bool.self { return .bool(value as! Bool) }
            if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
                state.unsupported = true
                return .null
            }
            let encoder = Encoder(state)
            try value.encode(to: encoder)
            return encoder.node ?? .empty
        }

        /// Appends the JSON text; false for what `JSONEncoder` would refuse or write otherwise.
        func write(to out: inout [UInt8]) -> Bool {
            switch self {
            case .null: out.append(contentsOf: "null".utf8)
            case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
            case .int(let i): out.append(contentsOf: String(i).utf8)  // a small string: no allocation
            case .uint(let u): out.append(contentsOf: String(u).utf8)
            case .double(let d):
                guard d.isFinite else { return false }
                CompactJSON.appendNumber(d.description, to: &out)
            case .float(let f):
                guard f.isFinite else { return false }
                CompactJSON.appendNumber(f.description, to: &out)
            case .string(let s): CompactJSON.appendString(s, to: &out)
            case .empty: out.append(contentsOf: "{}".utf8)
            case .array(let a):
                out.append(UInt8(ascii: "["))
                for (i, item) in a.items.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    guard item.write(to: &out) else { return false }
                }
                out.append(UInt8(ascii: "]"))
            case .object(let o):
                // JSONEncoder orders keys by their UTF-8 bytes.
                let sorted = o.entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                out.append(UInt8(ascii: "{"))
                for (i, entry) in sorted.enumerated() {
                    if i > 0 {
                        // A key written twice: JSONEncoder keeps one; left to it.
                        guard sorted[i - 1].key != entry.key else { return false }
                        out.append(UInt8(ascii: ","))
                    }
                    CompactJSON.appendString(entry.key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    guard entry.value.write(to: &out) else { return false }
                }
                out.append(UInt8(ascii: "}"))
            }
            return true
        }
    }

    // MARK: - text

    /// A floating-point number as `JSONEncoder` writes it: Swift's shortest description, without
    /// a trailing ".0".
    static func appendNumber(_ description: String, to out: inout [UInt8]) {
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    /// A string as `JSONEncoder` escapes it: quote, backslash and C0 controls; `/` kept. Runs
    /// between escapes are copied whole.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count where bytes[i] < 0x20 || bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                appendEscape(bytes[i], to: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0..<0x20:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigit(byte >> 4), hexDigit(byte & 0xF)])
        default: out.append(byte)  // the quote and the backslash
        }
    }

    static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
}
