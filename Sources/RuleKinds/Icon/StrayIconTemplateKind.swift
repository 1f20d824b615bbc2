import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// `icon.stray-template`: loose images named like app icons that the app does not use as icons.
package struct StrayIconTemplateKind: RuleKind {
    package static let name = "stray-icon-template"
    package static let summary = "Finds loose Icon*.png / AppIcon*.png files that are not the configured app icons."
    package static let subjects: Set<SubjectKind> = [.image]

    package static let stray = RuleInfo(
        id: "icon.stray-template", severity: .warning,
        summary:
            "Images the app bundles outside the configured icons whose names follow the icon naming convention (Icon.png, Icon-72.png, Icon@2x.png, AppIcon*.png; case-sensitive).",
        rationale:
            "QA1686, \"The wrong icon appears\": iOS and the App Store may pick up a bundled file named like an icon instead of the configured one.",
        fix: "Rename or remove the file, or reference it as an icon (asset catalog or CFBundleIconFiles).")
    package static let rules = [stray]

    package init(parameters: ModuleParameters) {}

    /// Names iOS or actool could take for an app icon: `Icon` followed by `.`, `-`, `@` or `~`
    /// (Icon.png, Icon-72.png, Icon@2x.png: the fixed names iOS looks up, case-sensitively on the
    /// device) and `AppIcon…` (actool's output names). `icon_eq_f01.png`, a web extension's
    /// `icon-48.png`, a snapshot's `icon-name-gauge.png` are other images (issue 58).
    static func isIconName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if RelativePath.hasPrefix(name, "AppIcon") { return true }
        guard RelativePath.hasPrefix(name, "Icon"), name.count > 4 else { return false }
        return [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "~")].contains(name[4])
    }

    package func applies(to subject: Subject) -> Bool {
        RelativePath.withBytes(of: subject.path) { path in
            let name = RelativePath.name(in: path)
            guard Self.isIconName(name), RelativePath.hasSuffix(name, ".png", ignoringCase: true) else { return false }
            let parent = RelativePath.parent(in: path)
            return SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(in: parent)) == nil
                && !RelativePath.hasSuffix(parent, ".lproj")
        }
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let file = RelativePath.name(subject.path)
        // Only a file the app bundles can be taken for its icon: with the project's resources
        // known, one outside them (a README's image, a technote's) ships nowhere.
        let project = context.project
        if project.resourcesKnown, !project.ownedPaths.contains(where: { RelativePath.isWithin(subject.path, $0) }) { return }
        var plist: [String: PlistValue] = [:]
        if let info = context.project.infoPlist, case .success(let (v, _)) = context.plist(info) { plist = v.dictionary ?? [:] }
        let names = LegacyIconNames.iconNames(plist).map(\.1)
        let usesCatalog = context.subjects(.assetSet).contains {
            RelativePath.name($0.path) == (context.project.appIconName ?? "AppIcon") + ".appiconset"
        }
        if names.isEmpty && !usesCatalog { return }  // pre-3.2 apps find Icon*.png by name: those are the icons
        // Without a catalog, iOS finds the fixed names (Icon.png, Icon-Small.png …) by name: icons.
        if !usesCatalog && LegacyIconNames.fixedNames.contains(file) { return }
        let named = names.contains { name in
            if name.lowercased().hasSuffix(".png") { return name == file }
            return LegacyIconNames.resolve(name, in: [file: subject.path]).contains(subject.path)
        }
        if !named {
            context.report(
                Self.stray, path: subject.path,
                message: "\(file) is named like an app icon but the app's icons come from "
                    + (usesCatalog ? "its asset catalog" : "the Info.plist icon keys") + ", which do not use it")
        }
    }

    package static let examples: [RuleExample] = {
        var catalog = ExampleTrees.singleSize()
        catalog["App/Info.plist"] = ExampleTrees.plist("<key>CFBundleIconName</key><string>AppIcon</string>")
        return [
            RuleExample(
                "an old Icon.png next to an asset catalog",
                files: catalog.merging(["App/Icon.png": .png(PNGSpec(width: 57, height: 57))]) { a, _ in a },
                triggers: ["icon.stray-template"]),
            RuleExample(
                "images that only start with icon (animation frames, a web extension's icon-48.png) are other images",
                files: catalog.merging([
                    "App/Anim/icon_eq_f01.png": .png(PNGSpec(width: 8, height: 8)),
                    "App/WebExtension/images/icon-48.png": .png(PNGSpec(width: 48, height: 48)),
                ]) { a, _ in a }, passes: ["icon.stray-template"]),
            RuleExample(
                "a loose alternate icon's CarPlay variant (~car) is the alternate's",
                files: ExampleTrees.singleSize().merging([
                    "App/Info.plist": ExampleTrees.plist(
                        "<key>CFBundleIconName</key><string>AppIcon</string><key>CFBundleIcons</key><dict><key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconFiles</key><array><string>AppIcon-Dark60x60</string></array></dict></dict></dict>"
                    ),
                    "App/AppIcon-Dark60x60@2x.png": .png(PNGSpec(width: 120, height: 120)),
                    "App/AppIcon-Dark60x60@2x~car.png": .png(PNGSpec(width: 120, height: 120)),
                ]) { a, _ in a }, passes: ["icon.stray-template"]),
            RuleExample(
                "Icon.png named by CFBundleIconFiles",
                files: [
                    "App/Info.plist": ExampleTrees.plist("<key>CFBundleIconFiles</key><array><string>Icon</string></array>"),
                    "App/Icon.png": .png(PNGSpec(width: 57, height: 57)),
                ], passes: ["icon.stray-template"]),
            RuleExample(
                "Icon-Small.png under its fixed name, not listed in CFBundleIconFiles, is found by name",
                files: [
                    "App/Info.plist": ExampleTrees.plist("<key>CFBundleIconFiles</key><array><string>Icon</string></array>"),
                    "App/Icon.png": .png(PNGSpec(width: 57, height: 57)), "App/Icon-Small.png": .png(PNGSpec(width: 29, height: 29)),
                ], passes: ["icon.stray-template"]),
        ]
    }()
}
