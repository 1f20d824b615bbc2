import SystemCalls
import Testing

/// A path keyed with its hash made once: equal exactly when the paths are, found by a key made
/// afresh, and told apart when paths share all but their last byte.
@Suite struct HashedPathTests {
    @Test func keysAreEqualExactlyWhenTheirPathsAre() {
        let a = HashedPath("/r/App/Assets.xcassets/AppIcon.appiconset/icon-60@2x.png")
        #expect(a == HashedPath("/r/App/Assets.xcassets/AppIcon.appiconset/icon-60@2x.png"))
        #expect(a != HashedPath("/r/App/Assets.xcassets/AppIcon.appiconset/icon-60@3x.png"))
        #expect(HashedPath("") == HashedPath(""))
    }

    @Test func aTableFindsEachPathByAKeyMadeAfresh() {
        let paths = (0..<2_000).map { "/root/Module\($0 % 7)/Assets.xcassets/Set\($0).appiconset/Contents.json" }
        var table: [HashedPath: Int] = [:]
        for (i, p) in paths.enumerated() { table[HashedPath(p)] = i }
        #expect(table.count == paths.count)
        #expect(paths.indices.allSatisfy { table[HashedPath(paths[$0])] == $0 })
        #expect(table[HashedPath("/root/Module0/Assets.xcassets/Set0.appiconset/Contents.jso")] == nil)
    }
}
