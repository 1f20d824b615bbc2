import SystemCalls
import Testing

/// Folder names a walk leaves out: exact names and `*.x` endings, matched on the name's bytes.
@Suite struct ExcludedNamesTests {
    @Test func namesAndEndingsMatchWholeNamesOnly() {
        let excluded = ExcludedNames(["Pods", "build", "*.framework", "*.xcframework"])
        #expect(excluded.contains("Pods") && excluded.contains("build"))
        #expect(!excluded.contains("pods") && !excluded.contains("Podsfile") && !excluded.contains("builds"))
        #expect(excluded.contains("Alamofire.framework") && excluded.contains("Lib.xcframework"))
        #expect(!excluded.contains(".framework"), "an ending alone is no bundle name")
        #expect(!excluded.contains("framework") && !excluded.contains("Lib.framework.zip") && !excluded.contains("Lib.frameworks"))
        // Names that are not UTF-8 (kept as escaped strings) are compared as they are.
        #expect(excluded.contains("\u{10FFE9}t\u{10FFE9}.framework"))
        #expect(!ExcludedNames(["Pods"]).contains("x.framework"), "no endings: names only")
    }
}
