import RuleKit

extension WatchIconsKind {
    typealias T = ExampleTrees
    static let set = "Watch/Assets.xcassets/AppIcon.appiconset"

    /// A watch app's folder (no Xcode project: a set of watch icons only is the watch app's).
    static func watch(_ entries: [(String, String, String?, String?)], files: [String: ExampleFile]) -> [String: ExampleFile] {
        var tree: [String: ExampleFile] = ["Watch/.reswatch.yaml": T.config(), set + "/Contents.json": T.contents(entries)]
        for (name, file) in files { tree[set + "/" + name] = file }
        return tree
    }

    /// An iOS app and its watch app, which is archived (Release) with WatchIcon; a Debug-only
    /// WatchIcon.dev beside it whose App Store image has alpha.
    static let debugOnlySet: [String: ExampleFile] = {
        let watchSettings = "SDKROOT = watchos; INFOPLIST_FILE = Watch/Info.plist; ASSETCATALOG_COMPILER_APPICON_NAME = WatchIcon;"
        var tree: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": .text(
                """
                // !$*UTF8*$!
                {
                	objects = {
                		P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1, T2); };
                		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
                		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
                		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
                		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
                		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
                		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; }; };
                		T2 = {isa = PBXNativeTarget; name = Watch; productType = "com.apple.product-type.application"; buildConfigurationList = L3; };
                		L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
                		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { \(watchSettings) }; };
                	};
                	rootObject = P1;
                }
                """),
            "App/Info.plist": T.plist("<key>CFBundleName</key><string>App</string>"),
            "Watch/Info.plist": T.plist("<key>CFBundleName</key><string>Watch</string>"),
        ]
        for name in ["WatchIcon", "WatchIcon.dev"] {
            let set = "Watch/Assets.xcassets/\(name).appiconset"
            tree[set + "/Contents.json"] = T.contents([("watch-marketing", "1024x1024", "1x", "m.png"), ("watch", "40x40", "2x", "l.png")])
            tree[set + "/m.png"] = T.png(1024, name == "WatchIcon" ? .rgb : .rgba)
            tree[set + "/l.png"] = T.png(80)
        }
        return tree
    }()

    package static let examples: [RuleExample] = [
        RuleExample(
            "a watch set with its App Store icon, all RGB",
            files: watch(
                [("watch-marketing", "1024x1024", "1x", "m.png"), ("watch", "40x40", "2x", "l.png")],
                files: ["m.png": T.png(1024), "l.png": T.png(80)]), passes: rules.map(\.id)),
        RuleExample(
            "a single-size watchOS set",
            files: [
                "Watch/.reswatch.yaml": T.config(),
                set + "/Contents.json": .text(
                    "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"watchos\",\"size\":\"1024x1024\",\"filename\":\"w.png\"}]}"),
                set + "/w.png": T.png(1024),
            ], passes: rules.map(\.id)),
        RuleExample(
            "a watch set without the 1024 App Store icon",
            files: watch([("watch", "40x40", "2x", "l.png")], files: ["l.png": T.png(80)]), triggers: ["icon.watch-marketing-missing"]),
        RuleExample(
            "a watch launcher icon with an alpha channel",
            files: watch(
                [("watch-marketing", "1024x1024", "1x", "m.png"), ("watch", "40x40", "2x", "l.png")],
                files: ["m.png": T.png(1024), "l.png": T.png(80, .rgba)]), triggers: ["icon.watch-alpha"]),
        RuleExample(
            "a watch icon set only a Debug configuration uses is never uploaded: no App Store rule judges it", files: debugOnlySet,
            triggers: ["icon.not-shipped"], passes: rules.map(\.id) + ["icon.marketing-alpha"]),
        RuleExample(
            "an iPhone set that also lists watch slots (a generator's everything set) is the iPhone app's",
            files: T.iphoneAllSizes(override: [
                T.iconSet + "/Contents.json": T.contents([
                    ("iphone", "60x60", "2x", "iphone-60x60@2x.png"),
                    ("ios-marketing", "1024x1024", "1x", "ios-marketing-1024x1024@1x.png"),
                    ("watch", "40x40", "2x", nil),
                ])
            ]), passes: rules.map(\.id)),
    ]
}
