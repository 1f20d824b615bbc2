import Findings
import ImageFacts
import ProjectModel
import RuleEngine
import SystemCalls

/// `icon.stray-template`: loose images named like app icons that the app does not use as icons.
public struct StrayIconTemplateKind: RuleKind {
    public static let name = "stray-icon-template"
    public static let summary = "Finds loose Icon*.png / AppIcon*.png files that are not the configured app icons."
    public static let subjects: Set<SubjectKind> = [.image]

    public static let stray = RuleInfo(
        id: "icon.stray-template", severity: .warning,
        summary: "Images outside the configured icons whose names follow the icon naming convention (Icon*.png, AppIcon*.png).",
        rationale:
            "QA1686, \"The wrong icon appears\": iOS and the App Store may pick up a bundled file named like an icon instead of the configured one.",
        fix: "Rename or remove the file, or reference it as an icon (asset catalog or CFBundleIconFiles).")
    public static let rules = [stray]

    public init(parameters: ModuleParameters) {}

    public func applies(to subject: Subject) -> Bool {
        RelativePath.withBytes(of: subject.path) { path in
            let name = RelativePath.name(in: path)
            guard
                RelativePath.hasPrefix(name, "icon", ignoringCase: true) || RelativePath.hasPrefix(name, "appicon", ignoringCase: true),
                RelativePath.hasSuffix(name, ".png", ignoringCase: true)
            else { return false }
            let parent = RelativePath.parent(in: path)
            return SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(in: parent)) == nil
                && !RelativePath.hasSuffix(parent, ".lproj")
        }
    }

    public func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let file = RelativePath.name(subject.path)
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

    public static let examples: [RuleExample] = {
        var catalog = ExampleTrees.singleSize()
        catalog["App/Info.plist"] = ExampleTrees.plist("<key>CFBundleIconName</key><string>AppIcon</string>")
        return [
            RuleExample(
                "an old Icon.png next to an asset catalog",
                files: catalog.merging(["App/Icon.png": .png(PNGSpec(width: 57, height: 57))]) { a, _ in a },
                triggers: ["icon.stray-template"]),
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
