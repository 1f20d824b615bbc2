import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `ignore:` globs of `.reswatch.yaml`, matched against paths relative to the project directory.
public enum GlobMatcher {
    public static func isIgnored(_ path: String, projectDirectory: String, patterns: [String]) -> Bool {
        guard !patterns.isEmpty else { return false }
        let relative =
            projectDirectory.isEmpty
            ? path : (path.hasPrefix(projectDirectory + "/") ? String(path.dropFirst(projectDirectory.count + 1)) : path)
        return patterns.contains { matches($0, relative) }
    }

    /// fnmatch with `**` meaning any number of directories; a pattern also matches everything below
    /// a matching directory.
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        let expanded = pattern.replacingOccurrences(of: "**/", with: "*").replacingOccurrences(of: "/**", with: "/*")
        if fnmatch(expanded, path, 0) == 0 { return true }
        var prefix = path
        while let slash = prefix.lastIndex(of: "/") {
            prefix = String(prefix[..<slash])
            if fnmatch(expanded, prefix, 0) == 0 { return true }
        }
        return false
    }
}
