import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `catalog.accent-color-missing`: the app target's `ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME`
/// names a colour set none of the catalogs it bundles has: Xcode warns ("Accent color 'X' is not
/// present in any asset catalogs") and the app falls back to the system tint
/// (requirements-2026.md 6.4, VERIFIED).
package struct AccentColorKind: RuleKind {
    package static let name = "accent-color"
    package static let summary = "Checks that the global accent colour the app target names is a colour set of its catalogs."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let missing = RuleInfo(
        id: "catalog.accent-color-missing", severity: .warning,
        summary: "ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME names a colour set that no asset catalog of the app target has.",
        rationale:
            "actool warns \"Accent color 'AccentColor' is not present in any asset catalogs\" and the app shows the system tint instead of its own (requirements-2026.md 6.4; common after a template's AccentColor set is deleted).",
        fix: "Add the colour set (Assets.xcassets ▸ New Color Set named as the setting), or clear the setting.")
    package static let rules = [missing]
    static let key = "ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME"

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard project.targetName != nil, project.noAppReason == nil, !project.buildSettingsIncomplete,
            let settings = project.appSettings, let name = settings.string(Self.key), !name.isEmpty, !name.contains("$")
        else { return }
        // The catalogs the app bundles (all of the project's when membership is not known).
        let catalogs = context.subjects(.catalog).map(\.path).filter { c in
            !project.resourcesKnown || project.ownedPaths.contains { RelativePath.isWithin(c, $0) }
        }
        guard !catalogs.isEmpty else { return }  // no catalog in the tree: a partial checkout, not judged
        // A name in a namespace ("colors/accent-color") is the set inside the folder of that name.
        let set = (name.split(separator: "/").last.map(String.init) ?? name) + ".colorset"
        if catalogs.contains(where: { Self.has(colorSet: set, in: $0, context: context, depth: 0) }) { return }
        let origin = settings.origin(Self.key)
        context.report(
            Self.missing, path: origin?.file ?? subject.path, line: origin?.line,
            message:
                "\(Self.key) is \"\(name)\", but no asset catalog of \(project.targetName!) has \(name).colorset (\(catalogs.prefix(3).map { RelativePath.name($0) }.joined(separator: ", ")))",
            related: Array(catalogs.prefix(3)))
    }

    /// A `name.colorset` folder in the catalog or one of its groups (a few levels deep).
    static func has(colorSet: String, in folder: String, context: EvaluationContext, depth: Int) -> Bool {
        guard depth < 6, case .success(let entries) = context.list(folder) else { return false }
        if entries.contains(where: { $0.isDirectory && $0.name == colorSet }) { return true }
        return entries.contains {
            $0.isDirectory && !$0.name.contains(".")
                && has(colorSet: colorSet, in: RelativePath.join(folder, $0.name), context: context, depth: depth + 1)
        }
    }

    package static let examples: [RuleExample] = {
        let project = ExampleTrees.pbxproj(
            buildSettings:
                "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME = AccentColor;")
        let base: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": project, "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>A</string>"),
            "App/Assets.xcassets/Contents.json": .text("{\"info\":{\"version\":1,\"author\":\"xcode\"}}"),
        ]
        return [
            RuleExample(
                "the accent colour set exists",
                files: base.merging([
                    "App/Assets.xcassets/AccentColor.colorset/Contents.json": .text("{\"colors\":[{\"idiom\":\"universal\"}]}")
                ]) { a, _ in a }, passes: rules.map(\.id)),
            RuleExample(
                "the accent colour set inside a group of the catalog",
                files: base.merging([
                    "App/Assets.xcassets/Brand/AccentColor.colorset/Contents.json": .text("{\"colors\":[{\"idiom\":\"universal\"}]}")
                ]) { a, _ in a }, passes: rules.map(\.id)),
            RuleExample("the setting names a colour set no catalog has", files: base, triggers: ["catalog.accent-color-missing"]),
        ]
    }()
}
