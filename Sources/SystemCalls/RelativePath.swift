/// Path helpers for root-relative paths.
public enum RelativePath {
    public static func join(_ a: String, _ b: String) -> String {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return a + "/" + b
    }
    // UTF-8 scans: '/' is one byte, and Character-level search is ten times slower.
    public static func parent(_ p: String) -> String {
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(p[..<slash])
    }
    public static func name(_ p: String) -> String {
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return p }
        return String(p[p.utf8.index(after: slash)...])
    }
    /// `parent(_:)` without a copy (a rule's `applies(to:)` runs for every subject).
    public static func parentSlice(_ p: String) -> Substring {
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return p[..<slash]
    }
    /// `name(_:)` without a copy.
    public static func nameSlice(_ p: Substring) -> Substring {
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return p }
        return p[p.utf8.index(after: slash)...]
    }
    public static func nameSlice(_ p: String) -> Substring { nameSlice(p[...]) }
    /// True when `s` starts with the ASCII `prefix`, ignoring ASCII case, without a copy.
    public static func hasPrefixIgnoringCase<S: StringProtocol>(_ s: S, _ prefix: StaticString) -> Bool {
        let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        var i = s.utf8.startIndex
        for expected in bytes {
            guard i != s.utf8.endIndex else { return false }
            var b = s.utf8[i]
            if b >= 0x41 && b <= 0x5A { b += 0x20 }
            if b != expected { return false }
            i = s.utf8.index(after: i)
        }
        return true
    }
    /// True when `s` ends with the ASCII `suffix`, ignoring ASCII case, without a copy.
    public static func hasSuffixIgnoringCase<S: StringProtocol>(_ s: S, _ suffix: StaticString) -> Bool {
        let bytes = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
        guard s.utf8.count >= bytes.count else { return false }
        var i = s.utf8.index(s.utf8.endIndex, offsetBy: -bytes.count)
        for expected in bytes {
            var b = s.utf8[i]
            if b >= 0x41 && b <= 0x5A { b += 0x20 }
            if b != expected { return false }
            i = s.utf8.index(after: i)
        }
        return true
    }
    /// Ancestors from the nearest to the root, the path itself first.
    public static func selfAndAncestors(_ p: String) -> [String] {
        var result = [p]
        var current = p
        while !current.isEmpty {
            current = parent(current)
            result.append(current)
        }
        return result
    }
    /// True when `p` is `dir` or lies below it.
    public static func isWithin(_ p: String, _ dir: String) -> Bool {
        dir.isEmpty || p == dir || p.hasPrefix(dir + "/")
    }
    /// Resolves `.`/`..` in a relative path; nil when it escapes the root.
    public static func normalize(_ p: String) -> String? {
        var parts: [Substring] = []
        for part in p.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}
