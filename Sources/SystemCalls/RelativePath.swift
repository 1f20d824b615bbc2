/// Path helpers for root-relative paths.
public enum RelativePath {
    public static func join(_ a: String, _ b: String) -> String {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        // One allocation of the final size (`a + "/" + b` grew a copy twice: 1,500 instructions).
        let count = a.utf8.count + 1 + b.utf8.count
        return withBytes(of: a) { x in
            withBytes(of: b) { y in
                String(unsafeUninitializedCapacity: count) { out in
                    _ = out.initialize(fromContentsOf: x)
                    out[x.count] = UInt8(ascii: "/")
                    _ = UnsafeMutableBufferPointer(rebasing: out[(x.count + 1)...]).initialize(fromContentsOf: y)
                    return count
                }
            }
        }
    }
    // UTF-8 scans: '/' is one byte, and Character-level search is ten times slower. Inlinable:
    // every entry of a scan asks for its name and parent, and a call into this module cost more
    // than the search.
    @inlinable
    public static func parent(_ p: String) -> String {
        guard let slash = lastOffset(of: UInt8(ascii: "/"), in: p) else { return "" }
        return String(p[..<p.utf8.index(p.utf8.startIndex, offsetBy: slash)])
    }
    @inlinable
    public static func name(_ p: String) -> String {
        guard let slash = lastOffset(of: UInt8(ascii: "/"), in: p) else { return p }
        return String(p[p.utf8.index(p.utf8.startIndex, offsetBy: slash + 1)...])
    }
    /// `parent(_:)` without a copy (a rule's `applies(to:)` runs for every subject).
    @inlinable
    public static func parentSlice(_ p: String) -> Substring {
        guard let slash = lastOffset(of: UInt8(ascii: "/"), in: p) else { return "" }
        return p[..<p.utf8.index(p.utf8.startIndex, offsetBy: slash)]
    }
    /// `name(_:)` without a copy.
    public static func nameSlice(_ p: Substring) -> Substring {
        guard let slash = lastIndex(of: UInt8(ascii: "/"), in: p) else { return p }
        return p[p.utf8.index(after: slash)...]
    }
    @inlinable
    public static func nameSlice(_ p: String) -> Substring {
        guard let slash = lastOffset(of: UInt8(ascii: "/"), in: p) else { return p[...] }
        return p[p.utf8.index(p.utf8.startIndex, offsetBy: slash + 1)...]
    }

    /// The UTF-8 offset of the last `byte` (ASCII) in `s`.
    @inlinable
    public static func lastOffset(of byte: UInt8, in s: String) -> Int? {
        withBytes(of: s) { bytes in
            var i = bytes.count
            while i > 0 {
                i -= 1
                if bytes[i] == byte { return i }
            }
            return nil
        }
    }

    /// The index of the last `byte` (ASCII) in `s`, found by a loop over its UTF-8 storage. The
    /// generic `utf8.lastIndex(of:)` stepped index by index and looked up generic metadata on
    /// every call: 5 % of a scan's instructions in these helpers alone (callgrind, 100k files).
    public static func lastIndex(of byte: UInt8, in s: Substring) -> String.Index? {
        // `withUTF8` of a copy: the storage itself for a native string (the generic
        // `utf8.withContiguousStorageIfAvailable` of a substring cost 350 instructions a call).
        var copy = s
        let found: Int? = copy.withUTF8 { buffer in
            var i = buffer.count
            while i > 0 {
                i -= 1
                if buffer[i] == byte { return i }
            }
            return nil
        }
        // UTF-8 offsets are the same in the copy and in `s`, whatever `s`'s storage.
        return found.map { s.utf8.index(s.utf8.startIndex, offsetBy: $0) }
    }

    /// Whether the ASCII `needle` occurs in `s`, by a loop over its UTF-8 storage.
    public static func contains(_ needle: StaticString, in s: String) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        func search(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = pattern.first, buffer.count >= pattern.count else { return pattern.isEmpty }
            var i = 0
            while i <= buffer.count - pattern.count {
                if buffer[i] == first {
                    var j = 1
                    while j < pattern.count && buffer[i + j] == pattern[j] { j += 1 }
                    if j == pattern.count { return true }
                }
                i += 1
            }
            return false
        }
        if let found = s.utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(s.utf8).withUnsafeBufferPointer(search)
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
    /// Whether `p` is one of `folders` or lies below one ("" holds every path): `isWithin` against
    /// each member, answered by looking up `p` and its folders in the set (a target's thousands of
    /// listed sources times its thousands of files were a sixth of a large app's check).
    public static func isWithinAny(_ p: String, of folders: Set<String>) -> Bool {
        guard !folders.isEmpty else { return false }
        if folders.contains("") { return true }
        var current = Substring(p)
        while true {
            if folders.contains(String(current)) { return true }
            guard let slash = current.utf8.lastIndex(of: UInt8(ascii: "/")) else { return false }
            current = current[..<slash]
        }
    }
    /// True when `p` is `dir` or lies below it. Compared as bytes first, without building
    /// `dir + "/"` (a path's app is looked up this way for each subject of a project with several
    /// apps); names that are not ASCII also match as Swift's `==` and `hasPrefix` match them.
    ///
    /// Where the bytes part, both being ASCII (or one path ending), the answer is no: an ASCII
    /// character is never joined to what comes before or after it by canonical equivalence, so
    /// only a difference at a byte that is not ASCII is left to Swift's comparison. (It looked at
    /// every byte of both paths for each no: a quarter of a whole repository's check.)
    public static func isWithin(_ p: String, _ dir: String) -> Bool {
        if dir.isEmpty { return true }
        let path = p.utf8
        let folder = dir.utf8
        var i = path.startIndex
        var j = folder.startIndex
        while i != path.endIndex, j != folder.endIndex, path[i] == folder[j] {
            path.formIndex(after: &i)
            folder.formIndex(after: &j)
        }
        let slash = UInt8(ascii: "/")
        if j == folder.endIndex, i == path.endIndex || path[i] == slash { return true }
        let pathByteIsASCII = i == path.endIndex || path[i] < 0x80
        let folderByteIsASCII = j == folder.endIndex || folder[j] < 0x80
        if pathByteIsASCII && folderByteIsASCII { return false }
        return p == dir || p.hasPrefix(dir + "/")
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
