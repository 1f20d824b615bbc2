import Foundation
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// Privacy manifests through the real binary: a manifest shaped like real apps' passes, the
/// mistakes App Store Connect mails about are found on their line, and hostile manifests are said
/// precisely without costing more than their size.
@Suite struct PrivacyManifestTests {
    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    static func check(_ manifest: ExampleFile) throws -> [[String: Any]] {
        let tree = try TempTree(["App/.reswatch.yaml": .text("devices: [iphone]\n"), "App/PrivacyInfo.xcprivacy": manifest])
        return try findings(tree.path + "/App")
    }

    static func findings(_ path: String) throws -> [[String: Any]] { checkDiagnostics([path]).diagnostics }

    static func privacy(_ d: [[String: Any]]) -> [[String: Any]] {
        d.filter { ($0["rule"] as? String)?.hasPrefix("privacy.") == true || $0["rule"] as? String == "io.unreadable" }
    }

    @Test func aManifestShapedLikeRealAppsPasses() throws {
        let body = """
                <key>NSPrivacyTracking</key>
                <false/>
                <key>NSPrivacyTrackingDomains</key>
                <array/>
                <key>NSPrivacyCollectedDataTypes</key>
                <array/>
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                    <dict>
                        <key>NSPrivacyAccessedAPIType</key>
                        <string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                        <key>NSPrivacyAccessedAPITypeReasons</key>
                        <array><string>CA92.1</string><string>1C8F.1</string></array>
                    </dict>
                </array>
            """
        #expect(Self.privacy(try Self.check(.text(Self.plist(body)))).isEmpty)
    }

    /// The issue's reproduction: a SystemBootTime reason for UserDefaults, on its line, naming the
    /// category the code belongs to.
    @Test func aReasonOfAnotherCategoryIsFoundOnItsLine() throws {
        let body = """
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                    <dict>
                        <key>NSPrivacyAccessedAPIType</key>
                        <string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                        <key>NSPrivacyAccessedAPITypeReasons</key>
                        <array>
                            <string>35F9.1</string>
                        </array>
                    </dict>
                </array>
            """
        let found = Self.privacy(try Self.check(.text(Self.plist(body))))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?["rule"] as? String == "privacy.api-reason-invalid" && found.first?["line"] as? Int == 11, "\(found)")
        #expect((found.first?["message"] as? String)?.contains("35F9.1 is a reason of NSPrivacyAccessedAPICategorySystemBootTime") == true)
        #expect(found.first?["code"] as? String == "ITMS-91055")
    }

    @Test func notAPropertyListIsInvalid() throws {
        let found = Self.privacy(try Self.check(.text("NSPrivacyTracking = maybe")))
        #expect(found.map { $0["rule"] as? String } == ["privacy.invalid"], "\(found)")
    }

    @Test func hostileManifestsAreSaidWithinTheirLimits() throws {
        // A binary plist whose objects share references 7 levels deep (millions once expanded).
        var found = Self.privacy(try Self.check(.bytes(BinaryPlistBuilder.sharedReferenceBomb(levels: 7))))
        #expect(found.count == 1, "\(found)")
        // 10^6 entries do not fit the 1 MiB a manifest may have: not read, and said.
        let million = Self.plist(
            "<key>NSPrivacyTrackingDomains</key><array>" + String(repeating: "<string>a</string>", count: 1_000_000) + "</array>")
        found = Self.privacy(try Self.check(.text(million)))
        #expect(found.map { "\($0["rule"]!)" } == ["io.unreadable"], "\(found)")
        #expect((found.first?["message"] as? String)?.contains("larger than 1 MiB") == true, "\(found)")
        // 20,000 bad entries within the limit: the first 50 and a count of the rest.
        let many = Self.plist(
            "<key>NSPrivacyTracking</key><true/><key>NSPrivacyTrackingDomains</key><array>"
                + String(repeating: "<string>https://x/</string>", count: 20_000) + "</array>")
        found = Self.privacy(try Self.check(.text(many)))
        #expect(found.count == 51, "\(found.count)")
        #expect(found.contains { ($0["message"] as? String)?.hasPrefix("19950 more findings") == true }, "the rest is counted")
        // A FIFO named PrivacyInfo.xcprivacy is not opened for reading.
        let tree = try TempTree(["App/.reswatch.yaml": .text("devices: [iphone]\n")])
        #expect(mkfifo(tree.path + "/App/PrivacyInfo.xcprivacy", 0o644) == 0)
        found = Self.privacy(try Self.findings(tree.path + "/App"))
        #expect((found.first?["message"] as? String)?.contains("a FIFO") == true, "\(found)")
    }
}
