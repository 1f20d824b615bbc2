import Findings
import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

@testable import Repair
@testable import RuleKinds

/// Each repair on real files: it repairs the finding, keeps every other byte, follows the file's
/// layout (indentation, line endings), and leaves what it cannot do unambiguously, saying why.
@Suite struct RepairKindsTests {
    static func plan(_ tree: TempTree, only: Set<String>? = nil) -> (RepairPlan, Engine) {
        let engine = tree.engine()
        return (Repairer.plan(root: tree.path, diagnostics: engine.diagnostics, projects: engine.projectContexts, only: only), engine)
    }

    static func written(_ plan: RepairPlan, _ path: String) -> String? {
        plan.writes.first { $0.path == path }.map { String(decoding: $0.new, as: UTF8.self) }
    }

    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>\r
        <plist version="1.0">\r
        <dict>\r
            <key>CFBundleName</key>\r
            <string>App</string>\r
        </dict>\r
        </plist>\r

        """

    static func app(_ plist: ExampleFile) -> [String: ExampleFile] {
        [
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\napp-icon: Brand\n"),
            "App/Info.plist": plist,
            "App/Assets.xcassets/Brand.appiconset/Contents.json": .text(
                "{\"images\":[{\"filename\":\"i.png\",\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\"}]}"),
            "App/Assets.xcassets/Brand.appiconset/i.png": .png(PNGSpec(width: 1024, height: 1024)),
        ]
    }

    @Test func theIconNameGoesWhereTheKeysAreWithTheFilesLineEndings() throws {
        let tree = try TempTree(Self.app(.text(Self.plist)))
        let (plan, _) = Self.plan(tree, only: ["plist.icon-name-missing"])
        let new = try #require(Self.written(plan, "App/Info.plist"))
        #expect(
            new
                == Self.plist.replacingOccurrences(
                    of: "<dict>\r\n", with: "<dict>\r\n    <key>CFBundleIconName</key>\r\n    <string>Brand</string>\r\n"))
        let value = try PropertyListSerialization.propertyList(from: Data(new.utf8), format: nil) as? [String: Any]
        #expect(value?["CFBundleIconName"] as? String == "Brand" && value?["CFBundleName"] as? String == "App")
    }

    @Test func anEmptyDictionaryAndAKeyOnTheDictLineAreEditedToo() throws {
        for (plist, expected) in [
            (
                "<plist version=\"1.0\"><dict/></plist>\n",
                "<plist version=\"1.0\"><dict>\n\t<key>CFBundleIconName</key>\n\t<string>Brand</string>\n</dict></plist>\n"
            ),
            (
                "<plist version=\"1.0\"><dict><key>A</key><string>b</string></dict></plist>\n",
                "<plist version=\"1.0\"><dict><key>CFBundleIconName</key><string>Brand</string><key>A</key><string>b</string></dict></plist>\n"
            ),
        ] {
            let tree = try TempTree(Self.app(.text(plist)))
            let (plan, _) = Self.plan(tree, only: ["plist.icon-name-missing"])
            #expect(Self.written(plan, "App/Info.plist") == expected)
        }
    }

    @Test func aBinaryPlistIsNeverRewritten() throws {
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: ["CFBundleName": "App"], format: .binary, options: 0))
        let tree = try TempTree(Self.app(.bytes(bytes)))
        let (plan, _) = Self.plan(tree, only: ["plist.icon-name-missing"])
        #expect(plan.repairs.isEmpty)
        #expect(plan.left.first?.reason.contains("binary plist, which reswatch never rewrites") == true)
    }

    @Test func aCaseOnlyNameIsCorrectedAndAMissingFileIsLeft() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            set + "/Contents.json": .text(
                "{\n  \"images\" : [\n    { \"filename\" : \"Icon.PNG\", \"idiom\" : \"universal\", \"platform\" : \"ios\", \"size\" : \"1024x1024\" },\n    { \"filename\" : \"gone.png\", \"idiom\" : \"iphone\", \"scale\" : \"2x\", \"size\" : \"60x60\" }\n  ]\n}\n"
            ),
            set + "/icon.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        let (plan, _) = Self.plan(tree, only: ["icon.file-missing"])
        let new = try #require(Self.written(plan, set + "/Contents.json"))
        #expect(new.contains("\"filename\" : \"icon.png\"") && new.contains("\"filename\" : \"gone.png\""))
        // The file an entry names but the set lacks is made from the set's 1024 master.
        let gone = try #require(plan.writes.first { $0.path == set + "/gone.png" })
        #expect(gone.original == nil && Array(gone.new[16..<24]) == [0, 0, 0, 120, 0, 0, 0, 120], "a new 120x120 PNG")
        // Without a master large enough, it is left, and said.
        try tree.remove(set + "/icon.png")
        let (without, _) = Self.plan(tree, only: ["icon.file-missing"])
        #expect(without.left.contains { $0.finding.message.contains("gone.png") && $0.reason.hasPrefix("the file is not in the set") })
    }

    /// In an image set a JPEG is renamed to .jpg; where that name is taken it is re-encoded
    /// instead, which these 68 bytes (a JPEG header and nothing more) cannot be: left, and said.
    @Test func aJPEGIsRenamedInAnImageSetElseReencoded() throws {
        let jpeg: ExampleFile = .bytes([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x30, count: 64))
        let tree = try TempTree([
            "App/Info.plist": .text(Self.plist),
            "App/Assets.xcassets/Logo.imageset/Contents.json": .text("{\"images\":[{\"idiom\":\"universal\",\"filename\":\"logo.png\"}]}"),
            "App/Assets.xcassets/Logo.imageset/logo.png": jpeg,
            "App/Assets.xcassets/Taken.imageset/Contents.json": .text("{\"images\":[{\"idiom\":\"universal\",\"filename\":\"t.png\"}]}"),
            "App/Assets.xcassets/Taken.imageset/t.png": jpeg, "App/Assets.xcassets/Taken.imageset/t.jpg": jpeg,
        ])
        let (plan, _) = Self.plan(tree, only: ["image.not-png"])
        let logo = try #require(plan.repairs.first { $0.finding.path.contains("Logo") })
        #expect(
            logo.changes.contains(
                .rename(from: "App/Assets.xcassets/Logo.imageset/logo.png", to: "App/Assets.xcassets/Logo.imageset/logo.jpg")))
        #expect(Self.written(plan, "App/Assets.xcassets/Logo.imageset/Contents.json")?.contains("\"filename\":\"logo.jpg\"") == true)
        #expect(plan.left.contains { $0.finding.path.contains("Taken") && $0.reason.hasPrefix("its JPEG data cannot be decoded") })
    }

    @Test func anUndeclaredCategoryGetsAPlaceholderReasonNotAGuess() throws {
        let manifest =
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>NSPrivacyTracking</key>\n  <false/>\n</dict>\n</plist>\n"
        let tree = try TempTree([
            "App/Info.plist": .text(Self.plist), "App/PrivacyInfo.xcprivacy": .text(manifest),
            "App/Sources/a.swift": .text("let d = UserDefaults.standard\n"),
        ])
        let (plan, _) = Self.plan(tree, only: ["privacy.api-undeclared"])
        let new = try #require(Self.written(plan, "App/PrivacyInfo.xcprivacy"))
        let value = try PropertyListSerialization.propertyList(from: Data(new.utf8), format: nil) as? [String: Any]
        let entry = try #require((value?["NSPrivacyAccessedAPITypes"] as? [[String: Any]])?.first)
        #expect(entry["NSPrivacyAccessedAPIType"] as? String == "NSPrivacyAccessedAPICategoryUserDefaults")
        #expect(entry["NSPrivacyAccessedAPITypeReasons"] as? [String] == ["CHOOSE-ONE-OF 1C8F.1 AC6B.1 C56D.1 CA92.1"])
        #expect(new.hasPrefix("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>NSPrivacyAccessedAPITypes</key>\n"))
        #expect(new.hasSuffix("  <key>NSPrivacyTracking</key>\n  <false/>\n</dict>\n</plist>\n"), "the rest as it was")
    }

    @Test func twoRepairsOfOneFileBuildOnEachOtherAndEachDiffShowsItsOwn() throws {
        var files = Self.app(
            .text(
                Self.plist.replacingOccurrences(
                    of: "    <key>CFBundleName</key>",
                    with: "    <key>UILaunchStoryboardName</key>\r\n    <string>Launch.storyboard</string>\r\n    <key>CFBundleName</key>"))
        )
        files["App/Base.lproj/Launch.storyboard"] = .text("<document/>\n")
        let tree = try TempTree(files)
        let (plan, _) = Self.plan(tree)
        let edits = plan.repairs.filter { $0.changes.contains { $0.path == "App/Info.plist" } }
        #expect(edits.count == 2)
        let final = try #require(Self.written(plan, "App/Info.plist"))
        #expect(final.contains("<string>Launch</string>") && final.contains("<key>CFBundleIconName</key>"))
        #expect(plan.writes.count { $0.path == "App/Info.plist" } == 1, "one write of the file, from the disk's bytes")
        if case .write(_, let before?, _) = edits[1].changes.first {
            #expect(
                String(decoding: before, as: UTF8.self).contains("CFBundleIconName"),
                "the second repair's diff starts from the first one's result")
        }
    }

    /// An extension without CFBundleDisplayName gets the app's name; from a variable (the app's
    /// `$(PRODUCT_NAME)` is the extension's own in its target) it gets `$(PRODUCT_NAME)`.
    @Test func anExtensionGetsADisplayName() throws {
        let keys = BundleKeysKind.goodKeys.replacingOccurrences(
            of: "<key>CFBundleDisplayName</key><string>$(PRODUCT_NAME)</string>", with: "")
        for (appPlist, expected) in [
            (BundleKeysKind.appPlist, "$(PRODUCT_NAME)"),
            (ExampleTrees.plist("<key>CFBundleDisplayName</key><string>Café &amp; Co</string>" + BundleKeysKind.versions), "Café & Co"),
        ] {
            let tree = try TempTree(BundleKeysKind.app(extensionKeys: keys, appPlist: appPlist))
            let (plan, _) = Self.plan(tree, only: ["plist.extension-keys"])
            let new = try #require(Self.written(plan, "Share/Info.plist"), "\(plan.left.map(\.reason))")
            let value = try PropertyListSerialization.propertyList(from: Data(new.utf8), format: nil) as? [String: Any]
            #expect(value?["CFBundleDisplayName"] as? String == expected)
            #expect(value?["NSExtension"] != nil && value?["CFBundleExecutable"] as? String == "$(EXECUTABLE_NAME)", "the rest kept")
        }
        // An undefined variable is the person's setting to make: left.
        let undefined = BundleKeysKind.goodKeys.replacingOccurrences(
            of: "<string>$(PRODUCT_NAME)</string><key>CFBundleName", with: "<string>$(NOPE)</string><key>CFBundleName")
        let (plan, _) = Self.plan(try TempTree(BundleKeysKind.app(extensionKeys: undefined)), only: ["plist.extension-keys"])
        #expect(plan.repairs.isEmpty && plan.left.first?.reason.hasPrefix("set the key's value") == true)
    }

    /// A JPEG under a `.png` name in an app icon set (which must hold PNGs) is re-encoded as a PNG
    /// under its own name, the pixels as decoded; one whose data is damaged is left, saying why.
    @Test func aJPEGInAnAppIconSetIsReencodedAsAPNG() throws {
        let jpeg = try makeJPEG(width: 1024, height: 1024)
        var files = Self.app(.text(Self.plist))
        files["App/Assets.xcassets/Brand.appiconset/i.png"] = .bytes(jpeg)
        let tree = try TempTree(files)
        let (plan, _) = Self.plan(tree, only: ["image.not-png"])
        let repair = try #require(plan.repairs.first)
        #expect(repair.title == "Re-encode i.png as a PNG (it held JPEG data; 1024x1024, the pixels as decoded)")
        let png = try #require(plan.writes.first { $0.path == "App/Assets.xcassets/Brand.appiconset/i.png" }?.new)
        let decoded = try RGBAImage.decode(png).get()
        #expect(decoded == (try RGBAImage.decodeJPEG(jpeg).get()), "the same pixels")
        #expect(png[25] == 2, "8-bit RGB, no alpha channel (an App Store icon must have none)")
        try FixJournal.apply(plan)
        #expect(!tree.engine().diagnostics.contains { $0.rule == "image.not-png" })

        files["App/Assets.xcassets/Brand.appiconset/i.png"] = .bytes(Array(jpeg.prefix(jpeg.count / 2)))
        let (damaged, _) = Self.plan(try TempTree(files), only: ["image.not-png"])
        #expect(
            damaged.repairs.isEmpty && damaged.left.first?.reason.contains("cannot be decoded") == true, "\(damaged.left.map(\.reason))")
    }
}
