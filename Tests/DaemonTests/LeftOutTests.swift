import Foundation
import ImageFacts
import TestSupport
import Testing

/// What no product ships, through the real daemon and inotify (issue 58): a vendored folder, a
/// prebuilt framework and a Git LFS pointer that appear are left out and said; when they go, so
/// does what was said; and the daemon's findings equal a cold `check` of the same tree.
@Suite struct LeftOutTests {
    static let set = "App/Assets.xcassets/Logo.imageset"
    static let lfs =
        "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 4821\n"

    /// The daemon's lines for `project.left-out`, and every rule id it reports.
    static func said(_ daemon: DaemonHarness) throws -> (leftOut: [String], rules: Set<String>) {
        let lines = try daemon.diagnosticLines()
        return (lines.filter { $0.hasPrefix("project.left-out ") }, Set(lines.map { String($0.split(separator: " ")[0]) }))
    }

    static func pbxproj(sdk: String) -> String {
        """
        // !$*UTF8*$!
        {
        	objects = {
        		P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1); };
        		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
        		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
        		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
        		T1 = {isa = PBXNativeTarget; name = Runner; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
        		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
        		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = \(sdk); INFOPLIST_FILE = Runner/Info.plist; }; };
        	};
        	rootObject = P1;
        }
        """
    }

    /// A save to project.pbxproj re-derives what ships: the Mac app becomes an iOS app (its
    /// Info.plist is judged), and back (only the one not-checked finding) — as a cold check says.
    @Test func aSavedProjectFileRederivesWhatIsJudged() throws {
        let tree = try TempTree([
            "Runner.xcodeproj/project.pbxproj": .text(Self.pbxproj(sdk: "macosx")),
            "Runner/Info.plist": .text(
                #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleIconFile</key><string>AppIcon</string></dict></plist>"#),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        var rules = Set(try daemon.diagnosticLines().map { String($0.split(separator: " ")[0]) })
        #expect(rules == ["project.not-checked"], "\(rules)")

        try tree.write(["Runner.xcodeproj/project.pbxproj": .text(Self.pbxproj(sdk: "iphoneos"))])
        try daemon.sync()
        rules = Set(try daemon.diagnosticLines().map { String($0.split(separator: " ")[0]) })
        #expect(rules.contains("launch.missing"), "the iOS app's Info.plist is judged now: \(rules)")
        // Not "builds no iOS app" any more (what is said now is only that its sources are absent).
        #expect(!(try daemon.diagnosticLines()).contains { $0.hasPrefix("project.not-checked") && $0.contains("builds no iOS app") })
        let (_, cold) = checkDiagnostics([tree.path])
        #expect(try daemon.diagnosticLines() == cold.map { "\($0["rule"] ?? "") \($0["path"] ?? "") \($0["message"] ?? "")" }.sorted())

        try tree.write(["Runner.xcodeproj/project.pbxproj": .text(Self.pbxproj(sdk: "macosx"))])
        try daemon.sync()
        rules = Set(try daemon.diagnosticLines().map { String($0.split(separator: " ")[0]) })
        #expect(rules == ["project.not-checked"], "back to the Mac app: \(rules)")
    }

    @Test func vendoredFoldersAndLFSPointersComeAndGoWithWhatIsSaid() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            Self.set + "/Contents.json": .text(#"{"images":[{"idiom":"universal","filename":"logo.png"}]}"#),
            Self.set + "/logo.png": .png(PNGSpec(width: 10, height: 10)),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        #expect(try Self.said(daemon).leftOut.isEmpty)

        // A Carthage checkout with a broken image and a framework with a CgBI PNG arrive.
        try tree.write([
            "Carthage/Checkouts/Lib/Demo/Assets.xcassets/X.imageset/x.png": .bytes(Array("not a png".utf8)),
            "App/Vendor/Lib.framework/icon.png": .png(PNGSpec(width: 10, height: 10, cgbi: true)),
        ])
        try daemon.sync()
        var (leftOut, rules) = try Self.said(daemon)
        #expect(leftOut.contains { $0.hasPrefix("project.left-out Carthage the Carthage folder is not judged") }, "\(leftOut)")
        #expect(
            leftOut.contains { $0.hasPrefix("project.left-out App/Vendor/Lib.framework a prebuilt framework is not judged") }, "\(leftOut)")
        #expect(!rules.contains("image.not-png") && !rules.contains("image.cgbi"), "\(rules)")

        // The image becomes a Git LFS pointer: said at the file, not called broken.
        try tree.write([Self.set + "/logo.png": .text(Self.lfs)])
        try daemon.sync()
        (leftOut, rules) = try Self.said(daemon)
        #expect(leftOut.contains { $0.hasPrefix("project.left-out \(Self.set)/logo.png logo.png is a Git LFS pointer") }, "\(leftOut)")
        #expect(!rules.contains("image.not-png"), "\(rules)")

        // The daemon holds what a cold check finds.
        let (_, cold) = checkDiagnostics([tree.path])
        let coldLines = cold.map { "\($0["rule"] ?? "") \($0["path"] ?? "") \($0["message"] ?? "")" }.sorted()
        #expect(try daemon.diagnosticLines() == coldLines)

        // Everything goes again: nothing left is said.
        try FileManager.default.removeItem(atPath: tree.path + "/Carthage")
        try tree.remove("App/Vendor")
        try tree.write([Self.set + "/logo.png": .png(PNGSpec(width: 10, height: 10))])
        try daemon.sync()
        let after = try daemon.diagnosticLines()
        #expect(!after.contains { $0.hasPrefix("project.left-out ") }, "\(after)")
    }
}
