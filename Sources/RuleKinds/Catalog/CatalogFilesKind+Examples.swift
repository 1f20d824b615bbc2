import ImageFacts
import RuleKit

extension CatalogFilesKind {
    static let logo = "App/Assets.xcassets/Logo.imageset"
    static let png = ExampleFile.png(PNGSpec(width: 4, height: 4))

    static func imageSet(_ names: [String], files: [String]) -> [String: ExampleFile] {
        let entries = names.enumerated().map { i, n in "{ \"idiom\" : \"universal\", \"filename\" : \"\(n)\", \"scale\" : \"\(i + 1)x\" }" }
        var tree: [String: ExampleFile] = [
            logo + "/Contents.json": .text("{\n  \"images\" : [\n    " + entries.joined(separator: ",\n    ") + "\n  ]\n}\n")
        ]
        for f in files { tree[logo + "/" + f] = png }
        return tree
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "every named file is there and named", files: imageSet(["logo.png", "logo@2x.png"], files: ["logo.png", "logo@2x.png"]),
            passes: rules.map(\.id)),
        RuleExample(
            "an image set names logo@2x.png, which is not there", files: imageSet(["logo.png", "logo@2x.png"], files: ["logo.png"]),
            triggers: ["catalog.file-missing"], passes: ["catalog.unassigned"]),
        RuleExample(
            "a file no entry names", files: imageSet(["logo.png"], files: ["logo.png", "logo-old.png"]), triggers: ["catalog.unassigned"],
            passes: ["catalog.file-missing"]),
        RuleExample(
            "a README beside the images (Flutter's LaunchImage.imageset) is no child of the set",
            files: imageSet(["logo.png"], files: ["logo.png"]).merging([logo + "/README.md": .text("# Launch Screen Assets\n")]) { a, _ in a
            },
            passes: ["catalog.unassigned"]),
        RuleExample(
            "a name that differs only by case is one finding",
            files: imageSet(["Logo@2x.png"], files: ["logo@2x.png"]), triggers: ["catalog.file-missing"], passes: ["catalog.unassigned"]),
        RuleExample(
            "a data set inside a group names a missing file",
            files: [
                "App/Assets.xcassets/Data/Contents.json": .text("{\"info\":{\"version\":1}}"),
                "App/Assets.xcassets/Data/Terms.dataset/Contents.json": .text(
                    "{\"data\":[{\"idiom\":\"universal\",\"filename\":\"terms.json\"}]}"),
            ], triggers: ["catalog.file-missing"]),
        RuleExample(
            "the image set inside an image stack layer is checked too",
            files: [
                "App/Assets.xcassets/AppIcon.solidimagestack/Contents.json": .text(
                    "{\"layers\":[{\"filename\":\"Back.solidimagestacklayer\"}]}"),
                "App/Assets.xcassets/AppIcon.solidimagestack/Back.solidimagestacklayer/Content.imageset/Contents.json": .text(
                    "{\"images\":[{\"idiom\":\"vision\",\"scale\":\"2x\"}]}"),
                "App/Assets.xcassets/AppIcon.solidimagestack/Back.solidimagestacklayer/Content.imageset/back.png": png,
            ], triggers: ["catalog.unassigned"]),
        RuleExample(
            "an image dropped into a colour set",
            files: [
                "App/Assets.xcassets/Accent.colorset/Contents.json": .text("{\"colors\":[{\"idiom\":\"universal\"}]}"),
                "App/Assets.xcassets/Accent.colorset/swatch.png": png,
            ], triggers: ["catalog.unassigned"]),
        RuleExample(
            "a colour set's notes and app icon sets are not this kind's",
            files: [
                "App/Assets.xcassets/Accent.colorset/Contents.json": .text("{\"colors\":[{\"idiom\":\"universal\"}]}"),
                "App/Assets.xcassets/Accent.colorset/notes.txt": .text("x"),
            ], passes: rules.map(\.id)),
    ]
}
