import Foundation
import RuleKit
import TestSupport
import Testing

/// What the app embeds and is signed with, through the real daemon and inotify (issue 60): a save
/// to the entitlements file or to a lockfile re-judges them, as a cold `check` would.
@Suite struct BundleInputsWatchTests {
    static func plist(_ body: String) -> ExampleFile {
        .text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n")
    }

    static let project = ExampleFile.text(
        """
        // !$*UTF8*$!
        {
        	objects = {
        		P1 = {isa = PBXProject; buildConfigurationList = L1; targets = (T1); };
        		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
        		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
        		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
        		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
        		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; CODE_SIGN_ENTITLEMENTS = App/App.entitlements; }; };
        	};
        	rootObject = P1;
        }
        """)

    @Test func savedEntitlementsAndLockfilesAreRejudged() throws {
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": Self.project,
            "App/Info.plist": Self.plist("<key>CFBundleName</key><string>App</string>"),
            "App/App.entitlements": Self.plist("<key>aps-environment</key><string>production</string>"),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        #expect(!(try ProjectInputsWatchTests.rules(daemon)).contains("entitlements.nfc-formats"))

        try tree.write([
            "App/App.entitlements": Self.plist(
                "<key>com.apple.developer.nfc.readersession.formats</key><array><string>NDEF</string></array>")
        ])
        try daemon.sync()
        #expect(try ProjectInputsWatchTests.rules(daemon).contains("entitlements.nfc-formats"))
        #expect(try ProjectInputsWatchTests.matchesColdCheck(daemon, tree))

        try tree.write(["Podfile.lock": .text("PODS:\n  - Alamofire (5.8.1)\n")])
        try daemon.sync()
        #expect(try ProjectInputsWatchTests.rules(daemon).contains("privacy.sdk-version-without-manifest"))

        try tree.write([
            "Podfile.lock": .text("PODS:\n  - Alamofire (5.9.1)\n"),
            "App/App.entitlements": Self.plist(
                "<key>com.apple.developer.nfc.readersession.formats</key><array><string>TAG</string></array>"),
        ])
        try daemon.sync()
        let rules = try ProjectInputsWatchTests.rules(daemon)
        #expect(!rules.contains("privacy.sdk-version-without-manifest") && !rules.contains("entitlements.nfc-formats"), "\(rules)")
        #expect(try ProjectInputsWatchTests.matchesColdCheck(daemon, tree))
    }
}
