import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// `tv.brandassets-alpha`, `tv.imagestack-layers`: the opaque images and layered stacks a tvOS
/// app's "App Icon & Top Shelf Image" brand assets must have (requirements-2026.md 6.1, 6.2).
package struct TVImageStackKind: RuleKind {
    package static let name = "tv-image-stacks"
    package static let summary =
        "Checks tvOS brand assets: Top Shelf images and the back layer of each icon stack without alpha, and each icon stack with two layers that have an image."
    package static let subjects: Set<SubjectKind> = [.catalog]

    package static let alpha = RuleInfo(
        id: "tv.brandassets-alpha", severity: .error, code: "ITMS-90497",
        summary: "A Top Shelf image, or an image of the back layer of an icon's image stack, with an alpha channel.",
        rationale:
            "App Store Connect refuses tvOS Top Shelf images and stack back layers that carry an alpha channel (ITMS-90497, seen in 2026: meshtastic/Meshtastic-Apple #2271, #2274; \"Back + Top Shelf fully opaque at every scale\"; requirements-2026.md 6.1).",
        fix:
            "Export the image without alpha (flatten it over its background); reswatch fix drops an alpha channel when every pixel is opaque."
    )
    package static let layers = RuleInfo(
        id: "tv.imagestack-layers", severity: .error,
        summary: "A brand-assets image stack (App Icon, App Store icon) with fewer than two layers that have an image.",
        rationale:
            "actool: \"The image stack \\\"App Icon - Small\\\" must have at least 2 layers with applicable content\" (requirements-2026.md 6.2); tvOS draws its icons as a parallax of two to five layers.",
        fix: "Give the stack at least two layers (a back layer and one in front), each with its image.")
    package static let rules = [alpha, layers]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        for brand in TVBrandAssetsKind.brandAssets(in: subject.path, depth: 0, context: context) { check(brand, context) }
    }

    func check(_ brand: String, _ context: EvaluationContext) {
        let contentsPath = RelativePath.join(brand, "Contents.json")
        guard case .success(let bytes) = context.read(contentsPath),
            case .success(let contents) = AssetContentsReader.parse(bytes, entriesKey: "assets")
        else { return }  // tv-brand-assets and catalog.contents-invalid say why
        for entry in contents.images {
            guard let file = entry.filename else { continue }
            let path = RelativePath.join(brand, file)
            if file.hasSuffix(".imagestack") {
                checkStack(path, isAppStore: entry.role == "primary-app-icon" && entry.idiom == "tv" && entry.size == "1280x768", context)
            } else if file.hasSuffix(".imageset"), entry.role?.hasPrefix("top-shelf-image") == true {
                for (image, _) in TVBrandAssetsKind.setImages(path, in: context) {
                    reportAlpha(image, what: "Top Shelf image \(RelativePath.name(image)) (\(file))", context)
                }
            }
        }
    }

    /// The stack's layers, front first, as its Contents.json lists them (else by name).
    func checkStack(_ stack: String, isAppStore: Bool, _ context: EvaluationContext) {
        var names: [String] = []
        if case .success(let bytes) = context.read(RelativePath.join(stack, "Contents.json")),
            case .success(let contents) = AssetContentsReader.parse(bytes, entriesKey: "layers")
        {
            names = contents.images.compactMap(\.filename).filter { $0.hasSuffix(".imagestacklayer") }
        }
        if names.isEmpty, case .success(let entries) = context.list(stack) {
            names = entries.filter { $0.isDirectory && $0.name.hasSuffix(".imagestacklayer") }.map(\.name).sorted()
        }
        let images = names.map {
            TVBrandAssetsKind.setImages(RelativePath.join(RelativePath.join(stack, $0), "Content.imageset"), in: context)
        }
        let filled = images.filter { !$0.isEmpty }.count
        // The App Store stack with no layer image at all is tv.appstore-icon's (one cause, one finding).
        if filled < 2, !(isAppStore && filled == 0) {
            context.report(
                Self.layers, path: RelativePath.join(stack, "Contents.json"),
                message:
                    "\(RelativePath.name(stack)) has \(filled) layer\(filled == 1 ? "" : "s") with an image; an image stack needs at least 2"
            )
        }
        guard let back = names.indices.last else { return }
        for (image, _) in images[back] {
            reportAlpha(image, what: "the back layer \(names[back]) of \(RelativePath.name(stack)): \(RelativePath.name(image))", context)
        }
    }

    func reportAlpha(_ image: String, what: String, _ context: EvaluationContext) {
        guard case .success(let facts) = context.image(image), let header = facts.header, header.hasAlpha, !header.isCgBI else { return }
        let how = header.colorType?.hasAlphaChannel == true ? "colour type \(header.rawColorType)" : "a tRNS chunk"
        var detail = ""
        if case .success(let px) = context.pixels(image), px.damage == nil, px.notDecoded == nil {
            detail = px.anyTransparent ? ", \(px.transparentPixels) transparent pixels" : ", although every pixel is opaque"
        }
        context.report(Self.alpha, path: image, message: "\(what) has an alpha channel (\(how)\(detail))")
    }
}

extension TVImageStackKind {
    typealias B = TVBrandAssetsKind

    /// The App Store stack with a front layer and a back layer (each 1280x768), the back one in `backColor`.
    static func twoLayers(backColor: PNGSpec.Color = .rgb, frontImage: Bool = true) -> [String: ExampleFile] {
        let stack = "App Icon - App Store.imagestack"
        var files: [String: ExampleFile] = [
            stack + "/Contents.json": .text(
                "{\"layers\":[{\"filename\":\"Front.imagestacklayer\"},{\"filename\":\"Back.imagestacklayer\"}]}"),
            stack + "/Back.imagestacklayer/Content.imageset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"tv\",\"filename\":\"back.png\"}]}"),
            stack + "/Back.imagestacklayer/Content.imageset/back.png": .png(PNGSpec(width: 1280, height: 768, color: backColor)),
            stack + "/Front.imagestacklayer/Content.imageset/Contents.json": .text(
                frontImage ? "{\"images\":[{\"idiom\":\"tv\",\"filename\":\"front.png\"}]}" : "{\"images\":[{\"idiom\":\"tv\"}]}"),
        ]
        if frontImage {
            files[stack + "/Front.imagestacklayer/Content.imageset/front.png"] = .png(
                PNGSpec(width: 1280, height: 768, color: .rgba, transparentPixels: true))
        }
        return files
    }

    static func shelf(_ color: PNGSpec.Color) -> [String: ExampleFile] {
        [
            "Top Shelf Image.imageset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"tv\",\"scale\":\"1x\",\"filename\":\"shelf.png\"}]}"),
            "Top Shelf Image.imageset/shelf.png": .png(PNGSpec(width: 1920, height: 720, color: color)),
        ]
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "an opaque back layer and Top Shelf image, a transparent front layer",
            files: B.brandAssets([B.appStoreEntry, B.topShelfEntry], files: twoLayers().merging(shelf(.rgb)) { a, _ in a }),
            passes: rules.map(\.id)),
        RuleExample(
            "a Top Shelf image with an alpha channel",
            files: B.brandAssets([B.appStoreEntry, B.topShelfEntry], files: twoLayers().merging(shelf(.rgba)) { a, _ in a }),
            triggers: ["tv.brandassets-alpha"]),
        RuleExample(
            "a back layer with an alpha channel",
            files: B.brandAssets([B.appStoreEntry], files: twoLayers(backColor: .rgba)), triggers: ["tv.brandassets-alpha"]),
        RuleExample(
            "an App Store stack with one layer that has an image",
            files: B.brandAssets([B.appStoreEntry], files: twoLayers(frontImage: false)), triggers: ["tv.imagestack-layers"]),
    ]
}
