import RuleEngine
import RuleKit
import SystemCalls
import TestSupport
import Testing

@testable import RuleKinds

/// Which images the name-and-folder kinds apply to, tested on the path's bytes, agrees with the
/// same tests written on substrings (as they were), for names and folders in any ASCII case, at
/// the top and deeper, beyond ASCII, and with bytes that are not UTF-8 (held as U+10FFxx).
@Suite struct AppliesOnBytesTests {
    static let folders = [
        "", "Icons", "AppIcon.appiconset", "A/AppIcon.APPICONSET", "Launch.launchimage", "x.imageset", "en.lproj", "EN.LPROJ",
        "a/b.lproj", "q\u{10FF80}", "\u{1F600}.appiconset", "Res/Base.lproj/more",
    ]
    static let names = [
        "Icon.png", "icon-60@2x.PNG", "AppIcon.png", "APPICON.png", "iTunesArtwork", "ITUNESARTWORK@2x", "Default.png", "photo.jpg",
        "icon.pngx", "\u{1F600}.png", "Icon\u{301}.png", "i", "", "icon\u{10FF2E}.png",
    ]

    static func paths() -> [String] {
        folders.flatMap { folder in names.map { folder.isEmpty ? $0 : folder + "/" + $0 } }
    }

    static func kind(_ name: String) throws -> any RuleKind {
        try #require(Repo.shippedRuleSet().rules.first { $0.kindName == name }).rule
    }

    static func setType(_ path: String) -> String? {
        SubjectClassifier.assetSetType(ofDirectory: RelativePath.nameSlice(RelativePath.parentSlice(path)))
    }

    @Test func launchImagesApplyToImagesOutsideSetsAndToLaunchImageSets() throws {
        let kind = try Self.kind(LaunchImagesKind.name)
        for path in Self.paths() {
            #expect(kind.applies(to: Subject(.image, path)) == (Self.setType(path) == nil), "\(path)")
        }
        for set in Self.folders where !set.isEmpty {
            #expect(kind.applies(to: Subject(.assetSet, set)) == RelativePath.hasSuffix(set, ".launchimage"), "\(set)")
        }
    }

    /// Names iOS or actool give icons, case-sensitively: `AppIcon…`, or `Icon` then `.`, `-`, `@`, `~`.
    @Test func strayIconTemplatesAreIconNamedPNGsOutsideSetsAndLproj() throws {
        let kind = try Self.kind(StrayIconTemplateKind.name)
        for path in Self.paths() {
            let name = RelativePath.nameSlice(path)
            let parent = RelativePath.parentSlice(path)
            let bytes = Array(name.utf8)
            let iconName =
                bytes.starts(with: Array("AppIcon".utf8))
                || (bytes.starts(with: Array("Icon".utf8)) && bytes.count > 4 && Array(".-@~".utf8).contains(bytes[4]))
            let expected =
                iconName && RelativePath.hasSuffix(name, ".png", ignoringCase: true) && Self.setType(path) == nil
                && !RelativePath.hasSuffix(parent, ".lproj")
            #expect(kind.applies(to: Subject(.image, path)) == expected, "\(path)")
        }
    }

    @Test func iTunesArtworkAndLocalizedImagesAndAppIconRoles() throws {
        let artwork = try Self.kind(ITunesArtworkKind.name)
        let localized = try Self.kind(LocalizedImageSizeKind.name)
        for path in Self.paths() {
            let name = RelativePath.nameSlice(path)
            let subject = Subject(.image, path)
            #expect(artwork.applies(to: subject) == RelativePath.hasPrefix(name, "itunesartwork", ignoringCase: true), "\(path)")
            #expect(localized.applies(to: subject) == RelativePath.hasSuffix(RelativePath.parentSlice(path), ".lproj"), "\(path)")
            let appIcon =
                Self.setType(path).map { $0 == "appiconset" }
                ?? (RelativePath.hasPrefix(name, "icon", ignoringCase: true) || RelativePath.hasPrefix(name, "appicon", ignoringCase: true)
                    || RelativePath.hasPrefix(name, "itunesartwork", ignoringCase: true))
            #expect(ImageRole.isAppIcon(path) == appIcon, "\(path)")
            #expect(SubjectClassifier.parentIsAssetSet(path) == (Self.setType(path) != nil), "\(path)")
        }
    }
}
