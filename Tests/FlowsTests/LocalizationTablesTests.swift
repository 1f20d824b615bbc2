import Foundation
import TestSupport
import Testing

/// Localization tables reswatch cannot read are said, never passed over (issue 59): a table over
/// the 8 MiB limit and a FIFO named like one each give `io.unreadable` at the file, and the
/// readable tables beside them are still judged.
@Suite struct LocalizationTablesTests {
    static let plist = #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleName</key><string>App</string></dict></plist>"#

    @Test func aTableThatCannotBeReadIsSaidAndTheOthersAreJudged() throws {
        let huge = "\"CFBundleName\" = \"" + String(repeating: "a", count: 9 << 20) + "\";\n"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Info.plist": .text(Self.plist),
            "App/fr.lproj/InfoPlist.strings": .text(huge),
            "App/it.lproj/InfoPlist.strings": .text("\"NSCamraUsageDescription\" = \"x\";\n"),
            "App/de.lproj/.keep": .text(""),
        ])
        #expect(mkfifo(tree.path + "/App/de.lproj/InfoPlist.strings", 0o644) == 0)
        let found = checkDiagnostics([tree.path + "/App"]).diagnostics.filter {
            ($0["rule"] as? String)?.hasPrefix("lproj.") == true || $0["rule"] as? String == "io.unreadable"
        }
        let lines = found.map { "\($0["rule"]!) \($0["path"]!)" }.sorted()
        #expect(
            lines == [
                "io.unreadable de.lproj/InfoPlist.strings", "io.unreadable fr.lproj/InfoPlist.strings",
                "lproj.infoplist-unknown-key it.lproj/InfoPlist.strings",
            ], "\(found)")
        let oversized = found.first { ($0["path"] as? String) == "fr.lproj/InfoPlist.strings" }
        #expect((oversized?["message"] as? String)?.contains("8 MiB") == true, "\(String(describing: oversized))")
    }
}
