import ImageFacts
import RuleKit

extension AppIconSetKind {
    package static let examples: [RuleExample] = {
        typealias T = ExampleTrees
        let set = T.iconSet
        return [
            RuleExample("a complete iPhone set passes", files: T.iphoneAllSizes(), passes: rules.map(\.id)),
            RuleExample("a good single-size 1024 set passes", files: T.singleSize(), passes: rules.map(\.id)),
            RuleExample(
                "a single-size set whose 1024 file is missing: one finding (every size follows from it)",
                files: T.singleSize().filter { !$0.key.hasSuffix("/icon.png") }, triggers: ["icon.file-missing"],
                passes: ["icon.missing-required", "icon.missing-recommended", "icon.marketing-missing"]),
            RuleExample(
                "dark and tinted 1024 variants may be transparent (iOS 18)",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    set + "/Contents.json": T.contents(
                        [("universal", "1024x1024", nil, "icon.png")],
                        extra: [
                            "    { \"idiom\" : \"universal\", \"platform\" : \"ios\", \"size\" : \"1024x1024\", \"filename\" : \"dark.png\", \"appearances\" : [ { \"appearance\" : \"luminosity\", \"value\" : \"dark\" } ] }",
                            "    { \"idiom\" : \"universal\", \"platform\" : \"ios\", \"size\" : \"1024x1024\", \"filename\" : \"tinted.png\", \"appearances\" : [ { \"appearance\" : \"luminosity\", \"value\" : \"tinted\" } ] }",
                        ]),
                    set + "/icon.png": T.png(1024), set + "/dark.png": T.png(1024, .rgba, transparent: true),
                    set + "/tinted.png": .png(PNGSpec(width: 1024, height: 1024, color: .grayAlpha, transparentPixels: true)),
                ], passes: ["icon.marketing-alpha", "icon.transparent", "icon.duplicate-slot", "icon.unassigned", "image.not-rgb"]),
            RuleExample(
                "watch and mac entries are left alone",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    set + "/Contents.json": T.contents([
                        ("universal", "1024x1024", nil, "icon.png"), ("watch", "24x24", "2x", nil), ("mac", "16x16", "1x", nil),
                    ]),
                    set + "/icon.png": T.png(1024),
                ], passes: ["icon.unassigned", "icon.missing-required"]),
            RuleExample(
                "a file named in another case is one finding (a warning), not a missing and an unassigned file",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    set + "/Contents.json": T.contents([("universal", "1024x1024", nil, "Icon.png")]),
                    set + "/icon.PNG": T.png(1024),
                ], triggers: ["icon.file-missing"], passes: ["icon.unassigned", "icon.marketing-missing"]),
            RuleExample(
                "an alternate icon set (another name) with an empty App Store slot",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    "App/Assets.xcassets/AppIcon-Dark.appiconset/Contents.json": T.contents([
                        ("iphone", "60x60", "2x", "i.png"), ("ios-marketing", "1024x1024", "1x", nil),
                    ]),
                    "App/Assets.xcassets/AppIcon-Dark.appiconset/i.png": T.png(120),
                ], triggers: ["icon.marketing-missing"]),
            RuleExample(
                "a set no configuration of the Xcode target uses",
                files: [
                    "App.xcodeproj/project.pbxproj": T.pbxproj(appIcon: "AppIcon"),
                    "App/Info.plist": T.plist("<key>CFBundleIconName</key><string>AppIcon</string>"),
                    "App/Assets.xcassets/AppIconOld.appiconset/Contents.json": T.contents([("universal", "1024x1024", nil, "icon.png")]),
                    "App/Assets.xcassets/AppIconOld.appiconset/icon.png": T.png(1024, .rgba),
                ], triggers: ["icon.not-shipped"], passes: ["icon.marketing-alpha"]),
            RuleExample(
                "the set the configuration builds with",
                files: [
                    "App.xcodeproj/project.pbxproj": T.pbxproj(appIcon: "AppIcon"),
                    "App/Info.plist": T.plist("<key>CFBundleIconName</key><string>AppIcon</string>"),
                    set + "/Contents.json": T.contents([("universal", "1024x1024", nil, "icon.png")]), set + "/icon.png": T.png(1024),
                ], passes: ["icon.not-shipped"]),
            RuleExample(
                "121x120 in the 60@2x slot",
                files: T.iphoneAllSizes(override: [set + "/iphone-60x60@2x.png": .png(PNGSpec(width: 121, height: 120))]),
                triggers: ["icon.size-mismatch"]),
            RuleExample(
                "a 1032x1034 App Store icon", files: T.singleSize(.png(PNGSpec(width: 1032, height: 1034))),
                triggers: ["icon.size-mismatch"]),
            RuleExample(
                "no 60@2x iPhone icon",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    set + "/Contents.json": T.contents([("iphone", "60x60", "3x", "a.png"), ("ios-marketing", "1024x1024", "1x", "m.png")]),
                    set + "/a.png": T.png(180), set + "/m.png": T.png(1024),
                ], triggers: ["icon.missing-required", "icon.missing-recommended"]),
            RuleExample(
                "iPad app without 83.5@2x",
                files: [
                    "App/.reswatch.yaml": T.config(devices: "[ipad]"),
                    set + "/Contents.json": T.contents([("ipad", "76x76", "2x", "a.png"), ("ios-marketing", "1024x1024", "1x", "m.png")]),
                    set + "/a.png": T.png(152), set + "/m.png": T.png(1024),
                ], triggers: ["icon.missing-required"]),
            RuleExample(
                "no App Store icon",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    set + "/Contents.json": T.contents([("iphone", "60x60", "2x", "a.png")]), set + "/a.png": T.png(120),
                ], triggers: ["icon.marketing-missing"]),
            RuleExample("opaque RGBA App Store icon", files: T.singleSize(T.png(1024, .rgba)), triggers: ["icon.marketing-alpha"]),
            RuleExample(
                "palette + tRNS App Store icon", files: T.singleSize(.png(PNGSpec(width: 1024, height: 1024, color: .palette, trns: true))),
                triggers: ["icon.marketing-alpha"]),
            RuleExample(
                "transparent pixels in a home-screen icon",
                files: T.iphoneAllSizes(override: [set + "/iphone-60x60@2x.png": T.png(120, .rgba, transparent: true)]),
                triggers: ["icon.transparent"]),
            RuleExample(
                "a fully transparent pixel in a corner the rounded mask hides passes icon.transparent",
                files: T.iphoneAllSizes(override: [
                    set + "/iphone-60x60@2x.png": .png(PNGSpec(width: 120, height: 120, color: .rgba, transparentPixels: true))
                ]),
                passes: ["icon.transparent"]),
            RuleExample(
                "only nearly opaque pixels (alpha 250) pass icon.transparent",
                files: T.iphoneAllSizes(override: [
                    set + "/iphone-60x60@2x.png": {
                        var spec = PNGSpec(width: 120, height: 120, color: .rgba, transparentPixels: true)
                        spec.transparentAt = (60, 60)
                        spec.transparentAlpha = 250
                        return .png(spec)
                    }()
                ]),
                passes: ["icon.transparent"]),
            RuleExample(
                "opaque RGBA home-screen icon passes icon.transparent",
                files: T.iphoneAllSizes(override: [set + "/iphone-60x60@2x.png": T.png(120, .rgba)]),
                passes: ["icon.transparent"]),
            RuleExample(
                "Contents.json names a missing file", files: T.singleSize().filter { !$0.key.hasSuffix("icon.png") },
                triggers: ["icon.file-missing"]),
            RuleExample(
                "a file no entry names", files: T.singleSize().merging([set + "/extra.png": T.png(1024)]) { a, _ in a },
                triggers: ["icon.unassigned"]),
            RuleExample(
                "an entry with an impossible slot",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    set + "/Contents.json": T.contents([("universal", "1024x1024", nil, "icon.png"), ("iphone", "61x61", "2x", nil)]),
                    set + "/icon.png": T.png(1024),
                ], triggers: ["icon.unassigned"]),
            RuleExample(
                "two entries for one slot",
                files: [
                    "App/.reswatch.yaml": T.config(),
                    set + "/Contents.json": T.contents([("universal", "1024x1024", nil, "icon.png"), ("universal", "1024x1024", nil, nil)]),
                    set + "/icon.png": T.png(1024),
                ], triggers: ["icon.duplicate-slot"]),
            RuleExample(
                "a 57 pt slot with deployment target 15",
                files: T.iphoneAllSizes(override: [
                    set + "/Contents.json": T.contents([
                        ("iphone", "57x57", "1x", "old.png"), ("iphone", "60x60", "2x", "a.png"),
                        ("ios-marketing", "1024x1024", "1x", "m.png"),
                    ])
                ]).merging([set + "/old.png": T.png(57), set + "/a.png": T.png(120), set + "/m.png": T.png(1024)]) { _, b in b }
                    .filter { !$0.key.contains("iphone-") },
                triggers: ["icon.legacy-slot"]),
        ]
    }()
}
