import RuleKit

extension AlternateIconsKind {
    typealias T = ExampleTrees

    /// A universal app (iOS 15) on a single-size AppIcon, declaring the alternate `Dark` in its
    /// Info.plist, with `dark` as the files of the Dark set.
    static func app(dark: [String: ExampleFile]) -> [String: ExampleFile] {
        var files = T.singleSize()
        files["App/.reswatch.yaml"] = T.config(devices: "[iphone, ipad]")
        files["App/Info.plist"] = T.plist(
            "<key>CFBundleIconName</key><string>AppIcon</string><key>CFBundleIcons</key><dict><key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict></dict></dict>"
        )
        for (name, file) in dark { files["App/Assets.xcassets/Dark.appiconset/" + name] = file }
        return files
    }

    static func allSizes(_ slots: [(String, String, String, Int)]) -> [String: ExampleFile] {
        var files: [String: ExampleFile] = ["Contents.json": T.contents(slots.map { ($0.0, $0.1, $0.2, "\($0.3).png") })]
        for slot in slots { files["\(slot.3).png"] = T.png(slot.3) }
        return files
    }

    /// An Xcode project including every app icon set (`…_INCLUDE_ALL_APPICON_ASSETS = YES`).
    static func includeAll(_ extra: [String: ExampleFile]) -> [String: ExampleFile] {
        var files = T.singleSize()
        files["App/.reswatch.yaml"] = nil
        files["App.xcodeproj/project.pbxproj"] = T.pbxproj(
            buildSettings:
                "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS = YES; SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 15.0;"
        )
        return files.merging(extra) { _, b in b }
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a single-size alternate is complete",
            files: app(dark: ["Contents.json": T.contents([("universal", "1024x1024", nil, "d.png")]), "d.png": T.png(1024)]),
            passes: ["icon.alternate-sizes"]),
        RuleExample(
            "an all-sizes alternate with the iPhone and iPad sizes",
            files: app(
                dark: allSizes([
                    ("iphone", "60x60", "2x", 120), ("ipad", "76x76", "2x", 152), ("ipad", "83.5x83.5", "2x", 167),
                    ("ios-marketing", "1024x1024", "1x", 1024),
                ])), passes: ["icon.alternate-sizes"]),
        RuleExample(
            "an alternate without the iPad 167x167 icon",
            files: app(dark: allSizes([("iphone", "60x60", "2x", 120), ("ipad", "76x76", "2x", 152)])),
            triggers: ["icon.alternate-sizes"]),
        RuleExample(
            "every set is included, and one lacks the iPhone 120x120 icon",
            files: includeAll(
                allSizes([("iphone", "40x40", "2x", 80), ("ios-marketing", "1024x1024", "1x", 1024)]).reduce(into: [:]) {
                    $0["App/Assets.xcassets/Alt.appiconset/" + $1.key] = $1.value
                }), triggers: ["icon.alternate-sizes"]),
        RuleExample(
            "every set is included, but a watch-only set is no iOS alternate",
            files: includeAll([
                "Watch/Assets.xcassets/WatchIcon.appiconset/Contents.json": T.contents([("watch", "1024x1024", "1x", "w.png")]),
                "Watch/Assets.xcassets/WatchIcon.appiconset/w.png": T.png(1024),
            ]), passes: ["icon.alternate-sizes"]),
        RuleExample(
            "an alternate that is an Icon Composer icon",
            files: T.singleSize().merging(IconComposerExamples.bundle(at: "App/Dark.icon")) { a, _ in a }.merging([
                "App/.reswatch.yaml": T.config(extra: "app-icon: AppIcon\n"),
                "App/Info.plist": T.plist(
                    "<key>CFBundleIcons</key><dict><key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict></dict></dict>"
                ),
            ]) { _, b in b }, passes: ["icon.alternate-sizes", "plist.icon-keys-with-catalog"]),
    ]
}
