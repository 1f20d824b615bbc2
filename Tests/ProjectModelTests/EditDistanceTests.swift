import ProjectModel
import Testing

/// Suggestions for a mistyped name ("did you mean …?"), and names quoted in messages: a hostile
/// megabyte-long name in a .reswatch.yaml or on the command line is neither compared cell by
/// cell with every rule id nor copied whole into a diagnostic.
@Suite struct EditDistanceTests {
    @Test func typosAreCloseAndFarNamesAreNot() {
        #expect(EditDistance.isClose("icon.legacy-slt", "icon.legacy-slot"))
        #expect(EditDistance.isClose("icon.legacy", "icon.legacy-slot"), "the same last component")
        #expect(!EditDistance.isClose("plist.orientations", "icon.size-mismatch"))
        #expect(EditDistance.distance("kitten", "sitting") == 3)
        let huge = String(repeating: "x", count: 1 << 20)
        #expect(!EditDistance.isClose(huge, "icon.size-mismatch"))
        #expect(EditDistance.distance(huge, "icon") == 1 << 20, "far apart in length: the longer length")
    }

    @Test func quotedNamesAreClipped() {
        #expect(Quoted.text("icon.size-mismatch") == "icon.size-mismatch")
        let huge = String(repeating: "é", count: 100_000)
        let shown = Quoted.text(huge)
        #expect(shown.hasPrefix(String(repeating: "é", count: 80) + "… (200000 bytes)"))
        #expect(shown.unicodeScalars.count < 100)
    }
}
