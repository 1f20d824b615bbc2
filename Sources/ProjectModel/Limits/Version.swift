import Foundation

/// A dotted OS version ("6.1", "12", "17.0.1"), compared numerically.
public struct OSVersion: Comparable, Hashable, Sendable, CustomStringConvertible, Codable {
    public let components: [Int]

    public init?(_ text: String) {
        let parts = Self.trimmed(text).split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var values: [Int] = []
        for part in parts {
            guard let v = Int(part), v >= 0 else { return nil }
            values.append(v)
        }
        components = values
    }

    public init(_ major: Int, _ minor: Int = 0) { components = [major, minor] }

    /// `text` without `"` or the white space of Foundation's `.whitespaces` at either end: CoreFoundation's
    /// list (tab, space, U+00A0, U+1680, U+2000…U+200B, U+202F, U+205F, U+3000), not today's
    /// Unicode space separators (U+200B is one of its). Foundation's `trimmingCharacters(in:)` built
    /// its character sets at every call: 0.2 million instructions a version, and every start reads
    /// the icon tables' versions (callgrind).
    static func trimmed(_ text: String) -> Substring {
        func trims(_ s: Unicode.Scalar) -> Bool {
            switch s.value {
            case 0x22, 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
            default: false
            }
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !trims($0) }), let last = scalars.lastIndex(where: { !trims($0) }) else {
            return ""
        }
        return Substring(scalars[first...last])
    }

    public static func < (a: OSVersion, b: OSVersion) -> Bool {
        let n = max(a.components.count, b.components.count)
        for i in 0..<n {
            let x = i < a.components.count ? a.components[i] : 0
            let y = i < b.components.count ? b.components[i] : 0
            if x != y { return x < y }
        }
        return false
    }
    public static func == (a: OSVersion, b: OSVersion) -> Bool { !(a < b) && !(b < a) }
    public func hash(into hasher: inout Hasher) {
        var c = components
        while c.count > 1, c.last == 0 { c.removeLast() }
        hasher.combine(c)
    }

    public var description: String { components.count == 1 ? "\(components[0]).0" : components.map(String.init).joined(separator: ".") }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let v = OSVersion(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a version: \(text)"))
        }
        self = v
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
