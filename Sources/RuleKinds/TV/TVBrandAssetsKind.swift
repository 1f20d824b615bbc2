import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `tv.appstore-icon`, `tv.size-mismatch`: a tvOS app's "App Icon & Top Shelf Image" brand assets
/// (`.brandassets`) as App Store Connect and actool take them. Sources:
/// ITMS wording (ITMS-90471: meshtastic/Meshtastic-Apple PR #2274,
/// #2277; Xamarin's tvOS troubleshooting), validation-anchors.md §2 (brand-asset roles).
package struct TVBrandAssetsKind: RuleKind {
    package static let name = "tv-brand-assets"
    package static let summary =
        "Checks tvOS brand assets: the 1280x768 App Store icon, and the pixel sizes of icon layers and Top Shelf images."
    package static let subjects: Set<SubjectKind> = [.catalog]

    package static let appStoreIcon = RuleInfo(
        id: "tv.appstore-icon", severity: .error, code: "ITMS-90471",
        summary:
            "The App Icon & Top Shelf brand assets lack the 1280x768 App Store icon: no `tv` / `primary-app-icon` 1280x768 entry (a `tv-marketing` one does not count), no image stack there, or a stack with no layer image.",
        rationale:
            "App Store Connect: \"Missing Image Asset. Your app is missing the App Store Icon asset\" (ITMS-90471); the App Store icon must be the 1280x768 layered image with idiom tv and role primary-app-icon (tv-marketing compiles to a separate asset the validator ignores).",
        fix: "In the brand assets, fill App Icon - App Store (1280x768) with its layers (back layer opaque).")
    package static let sizeMismatch = RuleInfo(
        id: "tv.size-mismatch", severity: .error,
        summary: "A brand-assets image (an icon layer or a Top Shelf image) whose pixel size is not its entry's size × scale.",
        rationale:
            "actool sizes each tvOS brand asset by its role (App Icon 400x240 pt, App Store icon 1280x768 px, Top Shelf 1920x720 pt, Top Shelf Wide 2320x720 pt); an image of another size is scaled or rejected.",
        fix: "Re-export the image at the size the message gives.")

    package static let rules = [appStoreIcon, sizeMismatch]
    static let maximumDepth = 32

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        for brand in Self.brandAssets(in: subject.path, depth: 0, context: context) { check(brand, in: context) }
    }

    static func brandAssets(in folder: String, depth: Int, context: EvaluationContext) -> [String] {
        guard depth < Self.maximumDepth, case .success(let entries) = context.list(folder) else { return [] }
        var out: [String] = []
        for entry in entries.sorted(by: { $0.name < $1.name }) where entry.isDirectory {
            let path = RelativePath.join(folder, entry.name)
            if entry.name.hasSuffix(".brandassets") {
                out.append(path)
            } else if !entry.name.contains(".") {
                out += Self.brandAssets(in: path, depth: depth + 1, context: context)  // a group folder
            }
        }
        return out
    }

    /// A brand-assets entry: {size, idiom, filename, role}.
    struct Asset {
        var size: (Int, Int)?
        var idiom: String?
        var filename: String?
        var role: String?
        var line: Int?
    }

    func check(_ brand: String, in context: EvaluationContext) {
        let contentsPath = RelativePath.join(brand, "Contents.json")
        guard case .success(let bytes) = context.read(contentsPath),
            case .success(let contents) = AssetContentsReader.parse(bytes, entriesKey: "assets")
        else { return }
        let assets = contents.images.map { e in
            Asset(
                size: e.points.flatMap { p in Int(exactly: p.width).flatMap { w in Int(exactly: p.height).map { (w, $0) } } },
                idiom: e.idiom, filename: e.filename, role: e.role, line: e.line)
        }
        let name = RelativePath.name(brand)
        let appStore = assets.first { $0.idiom == "tv" && $0.role == "primary-app-icon" && $0.size.map { $0 == (1280, 768) } == true }
        if let appStore, let stack = appStore.filename {
            let layers = Self.layerImages(RelativePath.join(brand, stack), in: context)
            if layers.isEmpty {
                context.report(
                    Self.appStoreIcon, path: contentsPath, line: appStore.line,
                    message: "\(name): the App Store icon \(stack) has no layer with an image")
            }
        } else {
            let marketing = assets.contains { $0.idiom == "tv-marketing" }
            context.report(
                Self.appStoreIcon, path: contentsPath, line: appStore?.line ?? 1,
                message: "\(name) has no 1280x768 App Store icon (idiom tv, role primary-app-icon)"
                    + (marketing ? "; a tv-marketing entry compiles to a separate asset that App Store Connect does not take" : ""))
        }
        for asset in assets where asset.idiom == "tv" {
            guard let size = asset.size, let file = asset.filename else { continue }
            let path = RelativePath.join(brand, file)
            // The App Store icon is given in pixels; the others in points (@1x and @2x images).
            let inPixels = size == (1280, 768)
            let images = file.hasSuffix(".imagestack") ? Self.layerImages(path, in: context) : Self.setImages(path, in: context)
            for (image, scale) in images {
                let factor = inPixels ? 1 : scale
                guard case .success(let facts) = context.image(image), let header = facts.header else { continue }
                let expected = (size.0 * factor, size.1 * factor)
                if header.width != expected.0 || header.height != expected.1 {
                    context.report(
                        Self.sizeMismatch, path: image,
                        message:
                            "\(RelativePath.name(image)) is \(header.width)x\(header.height) but should be \(expected.0)x\(expected.1) (\(file), \(asset.role ?? "tv") \(size.0)x\(size.1)\(inPixels ? "" : " @\(factor)x"))",
                        related: [contentsPath])
                }
            }
        }
    }

    /// The images (that exist) of an image set, with their scale.
    static func setImages(_ set: String, in context: EvaluationContext) -> [(String, Int)] {
        guard case .success(let contents)? = context.assetContents(RelativePath.join(set, "Contents.json")) else { return [] }
        return contents.images.compactMap { e in
            guard let f = e.filename, let scale = e.scaleFactor else { return nil }
            let path = RelativePath.join(set, f)
            return context.exists(path) ? (path, scale) : nil
        }
    }

    /// The images of every layer of an image stack (`X.imagestacklayer/Content.imageset`).
    static func layerImages(_ stack: String, in context: EvaluationContext) -> [(String, Int)] {
        guard case .success(let entries) = context.list(stack) else { return [] }
        return entries.filter { $0.isDirectory && $0.name.hasSuffix(".imagestacklayer") }.sorted { $0.name < $1.name }.flatMap { layer in
            Self.setImages(RelativePath.join(RelativePath.join(stack, layer.name), "Content.imageset"), in: context)
        }
    }
}
