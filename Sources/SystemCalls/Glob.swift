#if canImport(Glibc)
    import Glibc
#endif

extension FileName {
    /// `fnmatch(3)` of one path segment against one glob segment (no flags: callers split on `/`).
    /// The name is matched by its own bytes (`withCString`), so a name that is not UTF-8 is matched
    /// as the file system spells it.
    public static func globMatches(_ pattern: String, _ name: String) -> Bool {
        withCString(name) { fnmatch(pattern, $0, 0) == 0 }
    }
}
