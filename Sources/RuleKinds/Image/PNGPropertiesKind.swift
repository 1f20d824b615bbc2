import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// `image.*`: format checks on every PNG that is an icon, a launch image or in an asset set.
package struct PNGPropertiesKind: RuleKind {
    package static let name = "png-properties"
    package static let summary = "Checks that icon / launch / asset-set PNGs are real, intact, RGB, non-interlaced PNGs."
    /// Images, other loose PNGs when Info.plist names them (icons with arbitrary names), and the
    /// PNG layers of Icon Composer bundles (judged like images in a set: Icon Composer renders
    /// every size from them).
    package static let subjects: Set<SubjectKind> = [.image, .loosePNG, .iconLayer]

    package static let notPNG = RuleInfo(
        id: "image.not-png", severity: .error, summary: "A `.png` file whose bytes are not a PNG (JPEG, GIF, WebP, empty file …).",
        rationale: "actool and the App Store read the bytes, not the name; a JPEG or WebP renamed to .png is rejected or shows no icon.",
        fix: "Re-export the image as a real PNG (e.g. `convert in.webp out.png`), or give it its true extension.")
    package static let corrupt = RuleInfo(
        id: "image.corrupt", severity: .error, code: "ITMS-90013",
        summary: "A damaged PNG: truncated, bad CRC, zlib error, missing IHDR/IEND.",
        rationale: "App Store Connect rejects bundles with unreadable images (ITMS-90013); the device shows a blank icon.",
        fix: "Re-export the image from its source; check that the commit did not cut the file (git LFS, line-ending filters).")
    package static let cgbi = RuleInfo(
        id: "image.cgbi", severity: .error, summary: "An Apple CgBI (Xcode-crushed) PNG committed to the source tree.",
        rationale:
            "CgBI files are Xcode build output (premultiplied BGRA, raw deflate); other tools cannot read them and Xcode crushes them again.",
        fix: "Replace the file with the original PNG (the designer's export), not one copied out of a built .app.")
    package static let interlaced = RuleInfo(
        id: "image.interlaced", severity: .warning,
        summary:
            "An Adam7-interlaced PNG: a warning for launch images and loose app icons, info for an app icon set's files (actool writes new icon files from them) and in other image sets.",
        rationale:
            "App Programming Guide (App-Related Resources): \"avoid using interlaced PNGs\"; they decode slower and some iOS versions render them wrongly.",
        fix: "Re-save without interlacing (e.g. `convert in.png -interlace none out.png`).")
    package static let notRGB = RuleInfo(
        id: "image.not-rgb", severity: .error,
        summary:
            "A grayscale PNG (colour type 0 or 4): an error for app icons, a warning for launch images, info in other image sets (asset catalogs accept grayscale there).",
        rationale:
            "QA1686: images not in the RGB colour model \"may appear correctly in Xcode but will fail to load on the device\".",
        fix: "Convert to RGB (e.g. `convert in.png -type TrueColor out.png`).")
    package static let indexed = RuleInfo(
        id: "image.indexed", severity: .info, summary: "A palette (colour type 3) PNG used as an app icon or launch image.",
        rationale:
            "A palette's entries are RGB colours, so a palette icon meets QA1686's RGB requirement and actool accepts it; it is noted because quantisation (pngquant's -fs8) can band gradients. Transparency in a palette is judged by icon.marketing-alpha / icon.transparent.",
        fix: "Export the icon as 24-bit RGB (no palette quantisation such as pngquant's -fs8 output).")
    package static let sixteenBit = RuleInfo(
        id: "image.16-bit", severity: .warning, code: "ITMS-90682",
        summary:
            "A 16-bit-per-channel PNG: an error when the deployment target is 9.3 or lower; otherwise a warning for launch images and loose app icons, info elsewhere (an app icon set's files are actool's input: it writes 8-bit icon files).",
        rationale:
            "App Store Connect rejects 16-bit images for apps that deploy to iOS 9.3 or earlier (ITMS-90682); later, they only waste space.",
        fix: "Convert to 8 bits per channel (e.g. `convert in.png -depth 8 out.png`).")

    package static let rules = [notPNG, corrupt, cgbi, interlaced, notRGB, indexed, sixteenBit]
    package static let parameters = ["full-decode": "true to inflate every image too (finds zlib errors with a valid CRC); default false"]

    let fullDecode: Bool

    package init(parameters: ModuleParameters) throws(ModuleError) {
        fullDecode = try parameters.bool("full-decode") ?? false
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let path = subject.path
        judge(subject, in: context)
        // An image of an app icon set that a same-name Icon Composer icon replaces does not ship
        // (iconcomposer.shadowed-appiconset says so once, for the set). Asked only when there is
        // something to withdraw: an image with no finding keeps no record of the project's icons.
        let folder = RelativePath.parent(path)
        if context.hasFindings, subject.kind == .image, folder.hasSuffix(".appiconset"),
            IconBundles.shadowing(set: folder, in: context) != nil
        {
            context.withdrawFindings()
        }
    }

    func judge(_ subject: Subject, in context: EvaluationContext) {
        let path = subject.path
        // Other loose PNGs get only the source-tree checks (not a PNG at all, Xcode-crushed CgBI);
        // colour model, interlace and depth matter for icons and launch images.
        let treeChecksOnly = subject.kind == .loosePNG && !Self.isNamedByInfoPlist(path, context)
        let facts: ImageFacts
        switch context.image(path) {
        case .failure(let error):
            context.report(EngineRules.unreadable, path: path, message: "cannot read image: \(error.reason)")
            return
        case .success(let f): facts = f
        }
        // A Git LFS pointer stands for an image the clone does not have: nothing about the image
        // can be known, so it is left out and said (check folds these into one finding).
        if facts.kind == .lfsPointer {
            context.report(EngineRules.leftOut, path: path, message: EngineRules.lfsPointer(RelativePath.name(path)))
            return
        }
        guard facts.kind == .png else {
            // An extensionless iTunesArtwork is judged by icon.itunesartwork (its fix keeps the name).
            if !RelativePath.name(path).contains("."), RelativePath.name(path).lowercased().hasPrefix("itunesartwork") { return }
            context.report(
                Self.notPNG, path: path, message: "\(RelativePath.name(path)) is not a PNG: its content is \(article(facts.kind))")
            return
        }
        guard let header = facts.header else {
            if !treeChecksOnly { context.report(Self.corrupt, path: path, message: "PNG is damaged: \(facts.damage ?? "no IHDR")") }
            return
        }
        if let damage = facts.damage, !treeChecksOnly {
            context.report(Self.corrupt, path: path, message: "PNG is damaged: \(damage)")
        } else if !treeChecksOnly, fullDecode, !header.isCgBI, case .success(let pixels) = context.pixels(path) {
            if let damage = pixels.damage {
                context.report(Self.corrupt, path: path, message: "PNG does not decode: \(damage)")
            } else if let why = pixels.notDecoded {
                // A valid PNG too large to inflate is not corrupt; that its data was not checked is said.
                context.report(
                    EngineRules.unreadable, severity: .warning, path: path,
                    message: "PNG pixels not checked: \(why) (its chunks and CRCs were)")
            }
        }
        if header.isCgBI {
            context.report(
                Self.cgbi, path: path, message: "\(RelativePath.name(path)) is an Apple CgBI (Xcode-crushed) PNG, not the source image")
        }
        judgeFormat(header, of: subject, in: context)
    }

    /// RGB, no interlace and 8 bits are Apple's requirements for app icons (QA1686) and what it
    /// documents for launch images; an ordinary image set accepts any PNG (at most info).
    func judgeFormat(_ header: PNGHeader, of subject: Subject, in context: EvaluationContext) {
        let path = subject.path
        let role = subject.kind == .iconLayer ? .other : ImageRole.role(of: path)
        // An app icon set's files are actool's input: it writes new icon files from them, so their
        // interlace and depth never ship (issue 58; ITMS-90682 is about a catalog of an app that
        // deploys to iOS 9.3 or earlier, validation-anchors.md). Loose icons are copied as they are.
        let actoolInput = role == .appIcon && RelativePath.parent(path).hasSuffix(".appiconset")
        if header.interlaced {
            let note =
                role == .other
                ? " (accepted in an image set; slower to decode)" : actoolInput ? " (actool writes new icon files from it)" : ""
            context.report(
                Self.interlaced, severity: role == .other || actoolInput ? .info : .warning, path: path,
                message: "PNG is Adam7-interlaced" + note)
        }
        // iOS 18 tinted icon variants are grayscale by design.
        if let color = header.colorType, color.isGrayscale, !(role == .appIcon && Self.isTintedVariant(path, context)) {
            let severity: Severity = role == .appIcon ? .error : (role == .launchImage ? .warning : .info)
            let why =
                [ImageRole.Role.appIcon: " (app icons must be RGB)", .launchImage: " (launch images should be RGB)"][role]
                ?? " (accepted in an image set)"
            context.report(Self.notRGB, severity: severity, path: path, message: "PNG is \(color.name), not RGB" + why)
        }
        if role != .other, header.colorType == .palette {
            context.report(
                Self.indexed, path: path,
                message: "\(role == .appIcon ? "app icon" : "launch image") is a palette (indexed) PNG"
                    + (header.hasTransparencyChunk ? " with tRNS" : "") + "; its colours are RGB, so it meets the RGB requirement")
        }
        if header.bitDepth == 16 {
            let old = context.project.deploymentTarget <= OSVersion(9, 3)
            let severity: Severity = old ? .error : (role == .other || actoolInput ? .info : .warning)
            let note =
                old
                ? " and the deployment target is \(context.project.deploymentTarget)"
                : actoolInput ? " (actool writes 8-bit icon files from it)" : ""
            context.report(Self.sixteenBit, severity: severity, path: path, message: "PNG has 16 bits per channel" + note)
        }
    }

    /// Whether Contents.json of the icon set uses this file for a `luminosity: tinted` appearance.
    static func isTintedVariant(_ path: String, _ context: EvaluationContext) -> Bool {
        let contents = RelativePath.join(RelativePath.parent(path), "Contents.json")
        guard case .success(let c)? = context.assetContents(contents) else { return false }
        let file = RelativePath.name(path)
        return c.images.contains { $0.filename == file && $0.appearances.contains("luminosity:tinted") }
    }

    /// Whether the project's Info.plist names this file as an icon or launch image.
    static func isNamedByInfoPlist(_ path: String, _ context: EvaluationContext) -> Bool {
        guard let info = context.project.infoPlist, case .success(let (value, _)) = context.plist(info), let plist = value.dictionary else {
            return false
        }
        let file = RelativePath.name(path)
        var names = LegacyIconNames.iconNames(plist).map(\.1)
        names += ["UILaunchImageFile", "UILaunchImageFile~ipad"].compactMap { plist[$0]?.string }
        names += (plist["UILaunchImages"]?.array ?? []).compactMap { $0["UILaunchImageName"]?.string }
        return names.contains { name in
            name.lowercased().hasSuffix(".png")
                ? name == file : !LegacyIconNames.resolve(name, in: [file: path]).isEmpty || file.hasPrefix(name)
        }
    }

    func article(_ kind: ImageKind) -> String {
        switch kind {
        case .empty: "empty (0 bytes)"
        case .unknown: "not a known image format"
        case .appleDouble: "an AppleDouble resource fork (macOS metadata)"
        default: "\(kind.displayName) data"
        }
    }

    package static let examples: [RuleExample] = {
        let set = "App/Assets.xcassets/Sample.imageset/"
        let icon = "App/Assets.xcassets/AppIcon.appiconset/"
        return [
            RuleExample(
                "a plain RGB PNG passes", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10))],
                passes: rules.map(\.id)),
            RuleExample(
                "a JPEG named .png", files: [set + "a.png": .bytes([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46])],
                triggers: ["image.not-png"]),
            RuleExample("an empty .png", files: [set + "a.png": .bytes([])], triggers: ["image.not-png"]),
            RuleExample(
                "a truncated PNG", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10, truncateTo: 50))],
                triggers: ["image.corrupt"]),
            RuleExample(
                "a PNG with a bad CRC", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10, badCRC: true))],
                triggers: ["image.corrupt"]),
            RuleExample(
                "a Git LFS pointer in place of the image is left out, not called broken",
                files: [
                    set + "a.png": .text(
                        "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"
                    )
                ], triggers: ["project.left-out"], passes: ["image.not-png", "image.corrupt"]),
            RuleExample("a CgBI PNG", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10, cgbi: true))], triggers: ["image.cgbi"]),
            RuleExample(
                "an interlaced PNG", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10, interlaced: true))],
                triggers: ["image.interlaced"]),
            RuleExample(
                "a grayscale PNG", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10, color: .gray))],
                triggers: ["image.not-rgb"]),
            RuleExample(
                "a palette app icon", files: [icon + "Icon-60@2x.png": .png(PNGSpec(width: 120, height: 120, color: .palette))],
                triggers: ["image.indexed"]),
            RuleExample(
                "a palette image outside app icons passes", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10, color: .palette))],
                passes: ["image.indexed"]),
            RuleExample(
                "a 16-bit PNG", files: [set + "a.png": .png(PNGSpec(width: 10, height: 10, bitDepth: 16))],
                triggers: ["image.16-bit"]),
            RuleExample(
                "a 16-bit loose app icon (copied into the bundle as it is) is a warning",
                files: [
                    "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
                    "App/Info.plist": .text(
                        "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleIconFiles</key><array><string>Icon-60</string></array></dict></plist>"
                    ),
                    "App/Icon-60@2x.png": .png(PNGSpec(width: 120, height: 120, bitDepth: 16)),
                ],
                triggers: ["image.16-bit"]),
        ]
    }()
}
