import Foundation
import RuleEngine
import TestSupport
import Testing

/// The real apps of ../shared/corpus: no crashes, and the defects MANIFEST.md lists are found.
@Suite struct CorpusTests {
    static let apps = (try? FileManager.default.contentsOfDirectory(atPath: Repo.corpus).filter { !$0.hasSuffix(".md") }.sorted()) ?? []

    static func diagnostics(_ app: String) throws -> [[String: Any]] {
        let result = try runCommand(Repo.binary, ["check", "--format", "json", Repo.corpus + "/" + app])
        #expect(result.status == 0 || result.status == 1, "\(app): exit \(result.status) \(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(root["diagnostics"] as? [[String: Any]])
    }

    @Test func corpusIsPresent() { #expect(Self.apps.count == 13, "\(Repo.corpus)") }

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
            "NetNewsWire", "Widget/Assets.xcassets/AppIcon.appiconset/Icon_1024x1024.png", "icon.marketing-alpha",
            "colour type 6, every pixel opaque"
        ),
        (
            "NetNewsWire", "iOS/Resources/Assets.xcassets/AppIcon.appiconset/Dark Icon.png", "icon.file-missing",
            "listed in Contents.json but file missing"
        ),
        ("NetNewsWire", "iOS/Resources/Assets.xcassets/AppIcon.appiconset/Tint Icon.png", "image.16-bit", "16-bit depth"),
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
            "IceCubesApp", "IceCubesActionExtension/Assets.xcassets/ActionIcon.appiconset/ActionIcon1024.png", "icon.marketing-alpha",
            "transparent pixels present"
        ),
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
        (
            "HomeAssistant", "WatchApp/Assets.xcassets/WatchIcon.appiconset/release-1024x1024.png", "icon.marketing-alpha",
            "watch-marketing alpha"
        ),
    ]

    @Test(arguments: 0..<expected.count)
    func manifestAnomalyIsFound(_ index: Int) throws {
        let e = Self.expected[index]
        let found = try Self.diagnostics(e.app)
        let hit = found.contains { $0["path"] as? String == e.path && $0["rule"] as? String == e.rule }
        #expect(
            hit,
            "\(e.app): \(e.path) (\(e.manifest)) should give \(e.rule); got \(found.filter { $0["path"] as? String == e.path }.map { $0["rule"] ?? "" })"
        )
    }
}
