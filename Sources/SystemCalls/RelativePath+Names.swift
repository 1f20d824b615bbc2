/// Tests on a name's bytes: prefixes, suffixes, extensions. A scan asks them of every entry
/// (which subject a name is, which rules apply to it), and the `String` forms they replace
/// (`hasSuffix`, `lowercased()`, `split`) compare by `Character` with Unicode rules and allocate:
/// about a tenth of a check's instructions (callgrind, 11,002 files). Names are compared as their
/// bytes, as the file system and Xcode's extension tests see them; "ignoring case" is ASCII case.
extension RelativePath {
    /// `s`'s UTF-8 bytes: a native string's own storage, no copy (a bridged one is copied once).
    /// Inlinable, as the tests below are: called across modules they were 300 instructions each.
    @inlinable @inline(__always)
    public static func withBytes<R>(of s: Substring, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = s
        return copy.withUTF8(body)
    }

    @inlinable @inline(__always)
    public static func withBytes<R>(of s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = s
        return copy.withUTF8(body)
    }

    /// The ASCII lowercase of `b` (other bytes as they are).
    @usableFromInline @inline(__always)
    static func foldingCase(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// Whether `bytes` hold `pattern` at `offset`. `pattern` is ASCII; with `ignoringCase` it is
    /// written in lowercase.
    @inlinable
    public static func matches(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ pattern: StaticString, ignoringCase: Bool
    ) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard offset >= 0, offset + count <= bytes.count else { return false }
        let p = pattern.utf8Start
        for i in 0..<count {
            let b = ignoringCase ? foldingCase(bytes[offset + i]) : bytes[offset + i]
            if b != p[i] { return false }
        }
        return true
    }

    /// The bytes after the last "/" of a path's bytes (all of them when there is none): the
    /// name, as a view into `path`.
    @inlinable
    public static func name(in path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let slash = lastSlash(in: path) else { return path }
        return UnsafeBufferPointer(rebasing: path[(slash + 1)...])
    }

    /// The bytes before the last "/" of a path's bytes (none when there is none): the parent
    /// folder's path, as a view into `path`. With `name(in:)`, one walk over a path answers what
    /// `nameSlice(parentSlice(p))` made two substrings for (400 instructions each).
    @inlinable
    public static func parent(in path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let slash = lastSlash(in: path) else { return UnsafeBufferPointer(rebasing: path[0..<0]) }
        return UnsafeBufferPointer(rebasing: path[..<slash])
    }

    @inlinable
    static func lastSlash(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = bytes.count
        while i > 0 {
            i -= 1
            if bytes[i] == UInt8(ascii: "/") { return i }
        }
        return nil
    }

    /// Whether `bytes` start with `prefix` (ASCII; written in lowercase when `ignoringCase`).
    @inlinable
    public static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, ignoringCase: Bool = false) -> Bool {
        matches(bytes, at: 0, prefix, ignoringCase: ignoringCase)
    }

    /// Whether `bytes` end with `suffix` (ASCII; written in lowercase when `ignoringCase`).
    @inlinable
    public static func hasSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: StaticString, ignoringCase: Bool = false) -> Bool {
        matches(bytes, at: bytes.count - suffix.utf8CodeUnitCount, suffix, ignoringCase: ignoringCase)
    }

    /// Whether `s` starts with `prefix` (ASCII; written in lowercase when `ignoringCase`).
    @inlinable
    public static func hasPrefix(_ s: Substring, _ prefix: StaticString, ignoringCase: Bool = false) -> Bool {
        withBytes(of: s) { matches($0, at: 0, prefix, ignoringCase: ignoringCase) }
    }

    @inlinable
    public static func hasPrefix(_ s: String, _ prefix: StaticString, ignoringCase: Bool = false) -> Bool {
        withBytes(of: s) { matches($0, at: 0, prefix, ignoringCase: ignoringCase) }
    }

    /// Whether `s` ends with `suffix` (ASCII; written in lowercase when `ignoringCase`).
    @inlinable
    public static func hasSuffix(_ s: Substring, _ suffix: StaticString, ignoringCase: Bool = false) -> Bool {
        withBytes(of: s) { matches($0, at: $0.count - suffix.utf8CodeUnitCount, suffix, ignoringCase: ignoringCase) }
    }

    @inlinable
    public static func hasSuffix(_ s: String, _ suffix: StaticString, ignoringCase: Bool = false) -> Bool {
        withBytes(of: s) { matches($0, at: $0.count - suffix.utf8CodeUnitCount, suffix, ignoringCase: ignoringCase) }
    }

    /// Whether `bytes` are exactly `other`.
    @inlinable
    public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ other: StaticString, ignoringCase: Bool = false) -> Bool {
        bytes.count == other.utf8CodeUnitCount && matches(bytes, at: 0, other, ignoringCase: ignoringCase)
    }

    /// Whether `s` is exactly `other`.
    @inlinable
    public static func equals(_ s: Substring, _ other: StaticString, ignoringCase: Bool = false) -> Bool {
        withBytes(of: s) { $0.count == other.utf8CodeUnitCount && matches($0, at: 0, other, ignoringCase: ignoringCase) }
    }

    @inlinable
    public static func equals(_ s: String, _ other: StaticString, ignoringCase: Bool = false) -> Bool {
        withBytes(of: s) { $0.count == other.utf8CodeUnitCount && matches($0, at: 0, other, ignoringCase: ignoringCase) }
    }

    /// Whether `needle` occurs anywhere in `s`.
    @inlinable
    public static func contains(_ needle: StaticString, in s: Substring, ignoringCase: Bool) -> Bool {
        withBytes(of: s) { bytes in
            let last = bytes.count - needle.utf8CodeUnitCount
            guard last >= 0 else { return false }
            for offset in 0...last where matches(bytes, at: offset, needle, ignoringCase: ignoringCase) { return true }
            return false
        }
    }
}
