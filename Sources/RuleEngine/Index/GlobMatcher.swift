import SystemCalls

/// `ignore:` globs of `.reswatch.yaml`, matched against paths relative to the project directory.
///
/// Matching is on whole path segments (FNM_PATHNAME semantics): `*`, `?` and `[…]` match within
/// one segment and never across `/`; a segment that is exactly `**` matches zero or more whole
/// segments. A leading `/` or `./` anchors nothing more (patterns are always relative to the
/// project). A pattern that matches a folder also matches everything below it.
/// `*.png` therefore matches only PNGs directly in the project folder; `**/*.png` matches every PNG.
public enum GlobMatcher {
    public static func isIgnored(_ path: String, projectDirectory: String, patterns: [String]) -> Bool {
        guard !patterns.isEmpty else { return false }
        let relative: String
        if projectDirectory.isEmpty {
            relative = path
        } else if path.hasPrefix(projectDirectory + "/") {
            relative = String(path.dropFirst(projectDirectory.count + 1))
        } else {
            return false  // not in the project: its globs do not apply
        }
        return patterns.contains { matches($0, relative) }
    }

    /// True when the pattern matches the path or one of its ancestor folders.
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        let patternSegments = segments(pattern.hasPrefix("./") ? String(pattern.dropFirst(2)) : pattern)
        let pathSegments = segments(path)
        guard !patternSegments.isEmpty, !pathSegments.isEmpty else { return false }
        let reachable = prefixesMatched(patternSegments, pathSegments)
        return reachable.dropFirst().contains(true)
    }

    static func segments(_ s: String) -> [String] { s.split(separator: "/", omittingEmptySubsequences: true).map(String.init) }

    /// For each k, whether the whole pattern matches the first k path segments (dynamic
    /// programming over segments: linear in pattern × path, whatever the number of `**`).
    static func prefixesMatched(_ pattern: [String], _ path: [String]) -> [Bool] {
        // state[j]: the pattern's first i segments match the path's first j segments.
        var state = [Bool](repeating: false, count: path.count + 1)
        state[0] = true
        for segment in pattern {
            var next = [Bool](repeating: false, count: path.count + 1)
            if segment == "**" {
                var any = false
                for j in 0...path.count {
                    any = any || state[j]
                    next[j] = any
                }
            } else {
                for j in 1...path.count where state[j - 1] {
                    next[j] = FileName.globMatches(segment, path[j - 1])
                }
            }
            state = next
        }
        return state
    }
}
