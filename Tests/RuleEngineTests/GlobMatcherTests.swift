import RuleEngine
import SystemCalls
import Testing

/// `ignore:` globs match on whole path segments: `*` never crosses `/`, `**` is whole segments.
@Suite struct GlobMatcherTests {
    @Test(arguments: [
        // (pattern, path, matches)
        ("**/go.imageset/*.png", "Logo.imageset/logo.png", false),
        ("**/go.imageset/*.png", "go.imageset/go.png", true),
        ("**/go.imageset/*.png", "A/B/go.imageset/go.png", true),
        ("**/go.imageset/*.png", "A/ago.imageset/go.png", false),
        ("*.png", "a.png", true),
        ("*.png", "A/a.png", false),
        ("**/*.png", "A/B/a.png", true),
        ("**/*.png", "a.png", true),
        ("A/*", "A/x", true),
        ("A/*", "A/x/y.png", true),  // A/x matches: everything below it too
        ("A/*", "B/A/x", false),
        ("A/**", "A", true),
        ("A/**/b.png", "A/b.png", true),
        ("A/**/b.png", "A/x/y/b.png", true),
        ("A/**/b.png", "A/x/y/c.png", false),
        ("**", "anything/at/all", true),
        ("Gen*/x.png", "Generated/x.png", true),
        ("Gen*/x.png", "Gen/sub/x.png", false),
        ("?.png", "a.png", true),
        ("?.png", "ab.png", false),
        ("[ab].png", "b.png", true),
        ("./A/x.png", "A/x.png", true),
        ("/A/x.png", "A/x.png", true),
        ("*", ".hidden", true),
        ("**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/z", String(repeating: "a/", count: 60) + "y", false),
    ])
    func matchesOnSegments(_ pattern: String, _ path: String, _ expected: Bool) {
        #expect(GlobMatcher.matches(pattern, path) == expected, "\(pattern) vs \(path)")
    }

    @Test func globsApplyOnlyInsideTheirProject() {
        #expect(GlobMatcher.isIgnored("App/A/x.png", projectDirectory: "App", patterns: ["A/*.png"]))
        #expect(!GlobMatcher.isIgnored("Other/A/x.png", projectDirectory: "App", patterns: ["A/*.png", "**"]))
        #expect(GlobMatcher.isIgnored("A/x.png", projectDirectory: "", patterns: ["A/*.png"]))
    }

    /// A name that is not UTF-8 is matched by the bytes on disk: `?` is one byte there, as
    /// fnmatch(3) sees it in a shell, not the four bytes of the escape the name is held as.
    @Test func aNameThatIsNotUTF8IsMatchedByItsBytes() {
        // "café.png" in Latin-1.
        let name = [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70, 0x6E, 0x67].withUnsafeBufferPointer { FileName.decode($0) }
        #expect(GlobMatcher.matches("caf?.png", "A/" + name) == false, "not at the top")
        #expect(GlobMatcher.matches("A/caf?.png", "A/" + name))
        #expect(GlobMatcher.matches("**/caf[!a-z].png", "A/" + name))
        #expect(!GlobMatcher.matches("A/caf??.png", "A/" + name))
    }
}
