import ImageFacts
import RuleKit

extension TVBrandAssetsKind {
    static let brand = "TV/Assets.xcassets/App Icon & Top Shelf Image.brandassets"

    /// Brand assets with the given `assets` entries (JSON objects) and files.
    static func brandAssets(_ entries: [String], files: [String: ExampleFile]) -> [String: ExampleFile] {
        var tree: [String: ExampleFile] = [
            "TV/.reswatch.yaml": ExampleTrees.config(),
            brand + "/Contents.json": .text("{\n  \"assets\" : [\n    " + entries.joined(separator: ",\n    ") + "\n  ]\n}\n"),
        ]
        for (path, file) in files { tree[brand + "/" + path] = file }
        return tree
    }

    static let appStoreEntry =
        "{ \"size\" : \"1280x768\", \"idiom\" : \"tv\", \"filename\" : \"App Icon - App Store.imagestack\", \"role\" : \"primary-app-icon\" }"
    static let topShelfEntry =
        "{ \"size\" : \"1920x720\", \"idiom\" : \"tv\", \"filename\" : \"Top Shelf Image.imageset\", \"role\" : \"top-shelf-image\" }"

    /// One layer of the App Store stack, holding an image of `width` x `height` (nil: no image).
    static func appStoreLayer(_ size: (Int, Int)?) -> [String: ExampleFile] {
        let set = "App Icon - App Store.imagestack/Back.imagestacklayer/Content.imageset"
        guard let size else { return [set + "/Contents.json": .text("{\"images\":[{\"idiom\":\"tv\"}]}")] }
        return [
            set + "/Contents.json": .text("{\"images\":[{\"idiom\":\"tv\",\"filename\":\"back.png\"}]}"),
            set + "/back.png": .png(PNGSpec(width: size.0, height: size.1)),
        ]
    }

    static func topShelf(_ size: (Int, Int)) -> [String: ExampleFile] {
        [
            "Top Shelf Image.imageset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"tv\",\"scale\":\"2x\",\"filename\":\"shelf@2x.png\"}]}"),
            "Top Shelf Image.imageset/shelf@2x.png": .png(PNGSpec(width: size.0, height: size.1)),
        ]
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a layered App Store icon and a Top Shelf image of the right sizes",
            files: brandAssets(
                [appStoreEntry, topShelfEntry], files: appStoreLayer((1280, 768)).merging(topShelf((3840, 1440))) { a, _ in a }),
            passes: rules.map(\.id)),
        RuleExample(
            "no 1280x768 App Store entry, only tv-marketing",
            files: brandAssets(
                [
                    "{ \"size\" : \"1280x768\", \"idiom\" : \"tv-marketing\", \"filename\" : \"App Icon - App Store.imagestack\", \"role\" : \"primary-app-icon\" }"
                ],
                files: appStoreLayer((1280, 768))), triggers: ["tv.appstore-icon"]),
        RuleExample(
            "the App Store icon's layers hold no image (DOOM's tvOS brand assets)",
            files: brandAssets([appStoreEntry], files: appStoreLayer(nil)),
            triggers: ["tv.appstore-icon"]),
        RuleExample(
            "a Top Shelf @2x image of the @1x size",
            files: brandAssets(
                [appStoreEntry, topShelfEntry], files: appStoreLayer((1280, 768)).merging(topShelf((1920, 720))) { a, _ in a }),
            triggers: ["tv.size-mismatch"], passes: ["tv.appstore-icon"]),
    ]
}
