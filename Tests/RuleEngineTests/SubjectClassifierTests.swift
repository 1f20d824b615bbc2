import RuleEngine
import RuleKit
import Testing

/// Which subject a name is, from the name alone. The classifier reads names as bytes; these
/// tests hold it to what it did when it compared `Character`s of lowercased copies, on every
/// combination of the names, extensions and cases a project holds.
@Suite struct SubjectClassifierTests {
    @Test(arguments: [
        ("AppIcon.appiconset", true, false, SubjectKind.assetSet), ("Logo.ImageSet", true, false, .assetSet),
        ("LaunchImage.LAUNCHIMAGE", true, false, .assetSet), ("AppIcon.icon", true, false, .iconComposer),
        (".icon", true, false, nil), ("Pods.xcframework", true, false, .framework), ("A.framework", true, false, .framework),
        ("en.lproj", true, false, .localization), ("Assets.xcassets", true, false, .catalog),
        ("Settings.bundle", true, false, .settingsBundle), ("settings.bundle", true, false, nil), ("Sources", true, false, nil),
        ("._Icon.png", false, false, nil), ("Info.plist", false, false, .infoPlist), ("App-Info.plist", false, false, .infoPlist),
        ("info.plist", false, false, nil), ("PrivacyInfo.xcprivacy", false, false, .privacyManifest),
        ("App.swift", false, false, .source), ("a.mm", false, false, .source), ("a.cpp", false, false, .source),
        ("a.SWIFT", false, false, nil), ("a.h", false, false, nil), ("Main.storyboard", false, false, .interfaceFile),
        ("Launch.xib", false, false, .interfaceFile), ("x.PNG", false, true, .image), ("x.jpg", false, true, nil),
        ("iTunesArtwork", false, false, .image), ("ITUNESARTWORK@2x", false, false, .image), ("iTunesArtwork.png", false, false, .image),
        ("Icon-60@2x.png", false, false, .image), ("APPICON.png", false, false, .image), ("Legacy-DEFAULT.png", false, false, .image),
        ("photo.png", false, false, .loosePNG), ("photo.jpg", false, false, nil), ("icon.jpg", false, false, nil),
    ])
    func kindOfName(_ name: String, _ isDirectory: Bool, _ inSet: Bool, _ kind: SubjectKind?) {
        #expect(SubjectClassifier.kind(name: name, isDirectory: isDirectory, parentIsAssetSet: inSet) == kind)
    }

    @Test func bytesClassifyAsCharactersDid() {
        let stems = [
            "", "icon", "Icon-60", "AppIcon", "appicon~ipad", "Default", "Legacy-default", "iTunesArtwork", "photo", "x.y",
            "\u{130}con", "Ic\u{F4}ne", "\u{1F600}", "._Icon", "Settings", "PrivacyInfo", "Info", "App-Info", "a",
            "\u{10FF80}icon",
        ]
        let extensions = [
            "", ".png", ".PNG", ".Png", ".png\u{301}", ".jpg", ".appiconset", ".AppIconSet", ".imageset",
            ".launchimage", ".launchimages", ".icon", ".ICON", ".xcframework", ".framework", ".lproj", ".xcassets", ".bundle",
            ".plist", ".xcprivacy", ".swift", ".m", ".mm", ".c", ".cc", ".cpp", ".h", ".storyboard", ".xib", "@2x", "@2x.png", ".",
            ".x\u{10FF2E}png",
        ]
        for stem in stems {
            for ext in extensions {
                let name = stem + ext
                for isDirectory in [false, true] {
                    for inSet in [false, true] {
                        #expect(
                            SubjectClassifier.kind(name: name, isDirectory: isDirectory, parentIsAssetSet: inSet)
                                == Self.reference(name: name, isDirectory: isDirectory, parentIsAssetSet: inSet),
                            "\(name) \(isDirectory) \(inSet)")
                    }
                }
                let expectedSet = Self.referenceSetType(name)
                #expect(SubjectClassifier.assetSetType(ofDirectory: name) == expectedSet, "\(name)")
                #expect(SubjectClassifier.assetSetType(ofDirectory: ("/" + name + "/").dropFirst().dropLast()) == expectedSet)
            }
        }
    }

    /// Where bytes and `Character`s part, the bytes are what Apple's tools compare (NSString's
    /// `hasPrefix` is literal): a Kelvin sign lowercases to "k", but no tool takes
    /// "iTunesArtwor\u{212A}" for iTunesArtwork; "Default\u{301}.png" starts with "Default",
    /// though its "t\u{301}" is one `Character`.
    @Test func namesAreTheirBytes() {
        #expect(Self.reference(name: "iTunesArtwor\u{212A}", isDirectory: false, parentIsAssetSet: false) == .image)
        #expect(SubjectClassifier.kind(name: "iTunesArtwor\u{212A}", isDirectory: false, parentIsAssetSet: false) == nil)
        #expect(Self.reference(name: "Default\u{301}.png", isDirectory: false, parentIsAssetSet: false) == .loosePNG)
        #expect(SubjectClassifier.kind(name: "Default\u{301}.png", isDirectory: false, parentIsAssetSet: false) == .image)
    }

    /// The classifier as it was written on `String` (before 2026-11-27).
    static func reference(name: String, isDirectory: Bool, parentIsAssetSet: Bool) -> SubjectKind? {
        if isDirectory {
            if referenceSetType(name) != nil { return .assetSet }
            if name.utf8.count > 5 && name.hasSuffix(".icon") { return .iconComposer }
            if name.hasSuffix(".xcframework") || name.hasSuffix(".framework") { return .framework }
            if name.hasSuffix(".lproj") { return .localization }
            if name.hasSuffix(".xcassets") { return .catalog }
            if name == "Settings.bundle" { return .settingsBundle }
            return nil
        }
        if name.hasPrefix("._") { return nil }
        if name == "Info.plist" || name.hasSuffix("-Info.plist") { return .infoPlist }
        if name == "PrivacyInfo.xcprivacy" { return .privacyManifest }
        if let dot = name.lastIndex(of: "."), ["swift", "m", "mm", "c", "cc", "cpp"].contains(name[name.index(after: dot)...]) {
            return .source
        }
        if name.hasSuffix(".storyboard") || name.hasSuffix(".xib") { return .interfaceFile }
        let lower = name.lowercased()
        if parentIsAssetSet { return lower.hasSuffix(".png") ? .image : nil }
        if lower == "itunesartwork" || lower == "itunesartwork@2x" { return .image }
        guard lower.hasSuffix(".png") else { return nil }
        if ["icon", "appicon", "default", "itunesartwork"].contains(where: { lower.hasPrefix($0) }) || lower.contains("default") {
            return .image
        }
        return .loosePNG
    }

    static func referenceSetType(_ name: String) -> String? {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let lower = String(name[name.utf8.index(after: dot)...]).lowercased()
        return ["appiconset", "imageset", "launchimage"].contains(lower) ? lower : nil
    }
}
