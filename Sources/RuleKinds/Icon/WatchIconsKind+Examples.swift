import RuleEngine

extension WatchIconsKind {
    typealias T = ExampleTrees
    static let set = "Watch/Assets.xcassets/AppIcon.appiconset"

    /// A watch app's folder (no Xcode project: a set of watch icons only is the watch app's).
    static func watch(_ entries: [(String, String, String?, String?)], files: [String: ExampleFile]) -> [String: ExampleFile] {
        var tree: [String: ExampleFile] = ["Watch/.reswatch.yaml": T.config(), set + "/Contents.json": T.contents(entries)]
        for (name, file) in files { tree[set + "/" + name] = file }
        return tree
    }

    public static let examples: [RuleExample] = [
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
