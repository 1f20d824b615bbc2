import Foundation
import RuleEngine
import TestSupport
import Testing

/// The real apps of ../shared/corpus: no crashes, and the defects MANIFEST.md lists are found.
@Suite(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"))
struct CorpusTests {
    static var apps: [String] { Repo.corpusApps }

    static func diagnostics(_ app: String) throws -> [[String: Any]] {
        let result = checkDiagnostics([Repo.corpus + "/" + app]).result
        #expect(result.status == 0 || result.status == 1, "\(app): exit \(result.status) \(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(root["diagnostics"] as? [[String: Any]])
    }

    /// Where a finding is shown, and what it is about: a finding about a missing file or a folder
    /// is shown on the file that declares it, with the missing file or folder first in `related`.
    static func locations(of d: [String: Any]) -> [String] {
        [d["path"] as? String ?? ""] + ((d["related"] as? [String])?.prefix(1) ?? [])
    }

    static func concerns(_ d: [String: Any], _ path: String) -> Bool { locations(of: d).contains(path) }

    /// CI systems and editors show a finding on a file: every finding is on an existing file.
    @Test(arguments: apps)
    func everyFindingIsShownOnAnExistingFile(_ app: String) throws {
        for d in try Self.diagnostics(app) {
            let path = (d["root"] as? String ?? "") + "/" + (d["path"] as? String ?? "")
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            #expect(exists && !isDirectory.boolValue, "\(app): \(d["rule"] ?? "") is shown on \(path), not an existing file")
        }
    }

    @Test func corpusIsPresent() { #expect(Self.apps.count == 14, "\(Repo.corpus)") }

    @Test(arguments: apps)
    func checkRunsOnEveryApp(_ app: String) throws {
        let found = try Self.diagnostics(app)
        for d in found { #expect(d["rule"] is String && d["path"] is String && d["message"] is String) }
    }

    /// MANIFEST.md anomaly → the rule that must report it.
    static let expected: [(app: String, path: String, rule: String, manifest: String)] = [
        ("HomeAssistant", "Sources/App/Resources/Assets.xcassets/AppIcon.appiconset/1024-mac.png", "image.not-png", "not-a-PNG (webp)"),
        ("HomeAssistant", "Sources/App/Resources/Assets.xcassets/AppIcon.beta.appiconset/16-mac.png", "image.not-png", "not-a-PNG (webp)"),
        ("DOOM-iOS-tvOS-2022", "code/iphone/DOOM-tvOS.xcassets/LaunchImage.launchimage/Default@2x.png", "image.cgbi", "CgBI chunk"),
        ("DOOM-iOS-tvOS-2022", "code/iphone/Default~ipad.png", "image.cgbi", "CgBI chunk"),
        (
            "DOOM-iOS-tvOS-2022", "code/iphone/DOOM-iOS.xcassets/AppIcon.appiconset/Icon-1024.png", "icon.marketing-alpha",
            "alpha, every pixel opaque"
        ),
        (
            "NetNewsWire", "iOS/Resources/Assets.xcassets/AppIcon.appiconset/Dark Icon.png", "icon.file-missing",
            "listed in Contents.json but file missing"
        ),
        ("NetNewsWire", "iOS/Resources/Assets.xcassets/AppIcon.appiconset/Tint Icon.png", "image.16-bit", "16-bit depth"),
        (
            "DOOM-iOS-tvOS-2022", "code/iphone/DOOM-tvOS.xcassets/Brand Assets.brandassets/Contents.json", "tv.appstore-icon",
            "brandassets entry (primary-app-icon 1280x768) contains no image file"
        ),
        (
            "moedict-cordova", "platforms/ios/MoeDict/Images.xcassets/LaunchStoryboard.imageset/Default@2x~universal~anyany.png",
            "catalog.file-missing", "listed in Contents.json but file missing"
        ),
        ("Simplenote", "Simplenote/Icons.xcassets/AppIcon.appiconset/icon1024pt.png", "icon.marketing-alpha", "every pixel opaque"),
        (
            "Simplenote", "Simplenote/Images.xcassets/Buttons/back_chevron.imageset/back_chevron@3x.png", "image.interlaced",
            "interlaced (Adam7)"
        ),
        (
            "IceCubesApp", "IceCubesApp/Assets.xcassets/AppIconAlternate49.appiconset/AppIconAlternate49-fs8.png", "icon.marketing-alpha",
            "colour type 3, tRNS"
        ),
        ("IceCubesApp", "IceCubesApp/Assets.xcassets/AppIcon.appiconset/AppIcon-fs8.png", "image.indexed", "palette (indexed)"),
        (
            "DuckDuckGo", "DuckDuckGo/AlternateAppIcons.xcassets/AppIcon-black.appiconset/Icon-Color-Black-1024x1024.png", "image.indexed",
            "palette (indexed)"
        ),
        (
            "moedict-cordova", "platforms/ios/MoeDict/Images.xcassets/AppIcon.appiconset/icon-1024.png", "icon.file-missing",
            "listed in Contents.json but file missing"
        ),
        (
            "zulip-mobile", "ios/ZulipMobile/Images.xcassets/AppIcon.appiconset/Icon-Small-50.png", "icon.size-mismatch",
            "29x29 @2x expects 58x58, file is 50x50"
        ),
        (
            "zulip-mobile", "ios/ZulipMobile/Images.xcassets/AppIcon.appiconset/Icon-Small@2x.png", "icon.size-mismatch",
            "29x29 @3x expects 87x87, file is 58x58"
        ),
        ("localsend", "app/ios/Runner/Assets.xcassets/LaunchImage.imageset/LaunchImage.png", "image.not-rgb", "grayscale (gray+alpha)"),
        (
            "fluffychat", "ios/Runner/Assets.xcassets/AppIcon.appiconset/Icon-App-50x50@1x.png", "icon.unassigned",
            "not referenced by Contents.json"
        ),
        // The legacy watch catalog (MANIFEST: "a legacy WatchApp/Assets.xcassets/WatchIcon") is in
        // no target's resources: said once, its watch-marketing alpha not judged (issue 58).
        ("HomeAssistant", "HomeAssistant.xcodeproj/project.pbxproj", "project.left-out", "legacy catalog no target bundles"),
    ]

    @Test(arguments: 0..<expected.count)
    func manifestAnomalyIsFound(_ index: Int) throws {
        let e = Self.expected[index]
        let found = try Self.diagnostics(e.app)
        let hit = found.contains { Self.concerns($0, e.path) && $0["rule"] as? String == e.rule }
        #expect(
            hit,
            "\(e.app): \(e.path) (\(e.manifest)) should give \(e.rule); got \(found.filter { $0["path"] as? String == e.path }.map { $0["rule"] ?? "" })"
        )
    }

    /// Every error reswatch reports on the corpus is explained by MANIFEST.md, or is a consequence
    /// of an anomaly it lists, or is judged here (with the reason) where the manifest is incomplete.
    static let explained: [(app: String, rule: String, pathPrefix: String, why: String)] = [
        ("DOOM-iOS-2012", "image.not-png", "__MACOSX/", "MANIFEST: not-a-PNG (AppleDouble resource-fork file)"),
        (
            "DOOM-iOS-2012", "plist.invalid-image-path", "code/iphone/Info.plist",
            "MANIFEST: CFBundleIconFile(s) name files not in the corpus"
        ),
        ("DOOM-iOS-2012", "icon.missing-required", "code/iphone/Info.plist", "follows from the missing DOOM_*.png files MANIFEST lists"),
        ("DOOM-iOS-2012", "launch.missing", "code/iphone/Info.plist", "MANIFEST: lower-case default.png is not a launch image"),
        ("DOOM-iOS-tvOS-2022", "image.cgbi", "", "MANIFEST: CgBI chunk (Xcode-crushed)"),
        ("DOOM-iOS-tvOS-2022", "icon.marketing-alpha", "code/iphone/DOOM-iOS.xcassets/AppIcon.appiconset/Icon-1024.png", "MANIFEST: alpha"),
        (
            "DOOM-iOS-tvOS-2022", "tv.appstore-icon", "code/iphone/DOOM-tvOS.xcassets/Brand Assets.brandassets/",
            "MANIFEST: the App Store imagestack (primary-app-icon 1280x768) contains no image file"
        ),
        ("DuckDuckGo", "icon.marketing-alpha", "DuckDuckGo/", "MANIFEST: alpha in marketing icons"),
        ("HomeAssistant", "icon.marketing-alpha", "", "MANIFEST: alpha in marketing icons"),
        ("HomeAssistant", "image.not-png", "", "MANIFEST: not-a-PNG (webp)"),
        ("IceCubesApp", "icon.marketing-alpha", "", "MANIFEST: alpha in marketing icons"),
        (
            "NetNewsWire", "icon.file-missing", "iOS/Resources/Assets.xcassets/AppIcon.appiconset/Dark Icon.png",
            "MANIFEST: corpus artefact, file not copied"
        ),
        ("NetNewsWire", "icon.marketing-alpha", "", "MANIFEST: alpha in marketing icons"),
        (
            "NetNewsWire", "plist.scene-config-invalid", "iOS/Resources/Info.plist",
            "corpus artefact: iOS/Base.lproj/Main.storyboard is in the repository but not copied (the whole repository passes)"
        ),
        ("Simplenote", "icon.marketing-alpha", "", "MANIFEST: alpha in marketing icon"),
        ("moedict-cordova", "icon.file-missing", "", "MANIFEST: listed in Contents.json but file missing"),
        (
            "moedict-cordova", "icon.marketing-missing", "platforms/ios/MoeDict/Images.xcassets/AppIcon.appiconset",
            "its icon-1024.png is missing (MANIFEST)"
        ),
        (
            "moedict-cordova", "icon.missing-required", "platforms/ios/MoeDict/Images.xcassets/AppIcon.appiconset",
            "its icon files are missing (MANIFEST)"
        ),
        ("newsyc", "launch.size-mismatch", "Resources/Launch Images/", "MANIFEST: launch image sizes"),
        ("zulip-mobile", "icon.size-mismatch", "ios/ZulipMobile/Images.xcassets/AppIcon.appiconset/", "MANIFEST: size mismatch"),
        // Judged: the manifest is incomplete here.
        (
            "DOOM-iOS-2012", "icon.marketing-missing", "code/iphone/Info.plist",
            "loose icons only: App Store Connect takes the 1024 App Store icon from an asset catalog (ITMS-90704)"
        ),
        (
            "iOctocat", "icon.marketing-missing", "Info.plist",
            "loose icons only: the App Store icon must come from an asset catalog (ITMS-90704)"
        ),
        (
            "newsyc", "icon.marketing-missing", "Info.plist",
            "loose icons only: the App Store icon must come from an asset catalog (ITMS-90704)"
        ),
        (
            "newsyc", "icon.missing-required", "Info.plist",
            "no iPad Pro 167x167 icon: App Store Connect requires it for iPad apps (ITMS-90023)"
        ),
        (
            "iOctocat", "icon.missing-required", "Info.plist",
            "manifest incomplete: deployment target 6.0 means QA1686 Tables 5 and 6 both apply, and Table 5 requires Icon-60@2x (120) and Icon-76 (76), which the app does not have"
        ),
        (
            "zulip-mobile", "icon.marketing-missing", "ios/ZulipMobile/Images.xcassets/AppIcon.appiconset",
            "manifest incomplete: the 2016 set has no ios-marketing 1024 slot, which App Store Connect requires (ITMS-90704)"
        ),
        (
            "zulip-mobile", "plist.usage-description-empty", "ios/ZulipMobile/Info.plist",
            "manifest incomplete: NSLocationWhenInUseUsageDescription is an empty string (ITMS-90738)"
        ),
    ]

    /// Flutter's LaunchImage.imageset is an ordinary image set a storyboard shows: grayscale is
    /// accepted there (only app icons must be RGB), so it is info, never an error or warning.
    @Test func aGrayscaleImageInAnOrdinaryImageSetIsOnlyInfo() throws {
        let found = try Self.diagnostics("localsend").filter {
            $0["path"] as? String == "app/ios/Runner/Assets.xcassets/LaunchImage.imageset/LaunchImage.png"
        }
        #expect(found.map { "\($0["rule"]!) \($0["severity"]!)" } == ["image.not-rgb info"])
    }

    @Test(arguments: apps)
    func noErrorTheManifestDoesNotExplain(_ app: String) throws {
        for d in try Self.diagnostics(app) where d["severity"] as? String == "error" {
            let rule = d["rule"] as? String ?? ""
            let path = d["path"] as? String ?? ""
            let ok = Self.explained.contains { e in
                e.app == app && e.rule == rule && Self.locations(of: d).contains { $0.hasPrefix(e.pathPrefix) }
            }
            #expect(ok, "\(app): unexplained error \(rule) at \(path): \(d["message"] as? String ?? "")")
        }
    }
}

/// CI runs the corpus tests wherever ../shared exists: they may be skipped only in a lone clone.
@Suite struct SharedPresenceTests {
    @Test func sharedIsPresentWhenRequired() {
        #expect(!Repo.sharedRequired || Repo.sharedAvailable, "RESWATCH_REQUIRE_SHARED=1 but \(Repo.corpus) is missing")
    }

    /// The repository's copy of the contract keeps every id of the shared spec it came from.
    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"))
    func theRepositoryContractKeepsEverySharedId() throws {
        let ids = { (text: String) in
            Set(
                text.split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix("| "), let cell = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces),
                        cell.contains("."), cell == cell.lowercased(), !cell.contains(" ")
                    else { return nil }
                    return cell
                })
        }
        let shared = ids(try String(contentsOfFile: Repo.shared + "/spec/rules.md", encoding: .utf8))
        let ours = ids(try String(contentsOfFile: Repo.contract, encoding: .utf8))
        #expect(shared.count >= 40)
        #expect(shared.subtracting(ours).isEmpty, "ids dropped from docs/spec/rules.md: \(shared.subtracting(ours).sorted())")
    }
}
