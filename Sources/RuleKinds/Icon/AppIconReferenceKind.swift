import Findings
import RuleKit
import SystemCalls

/// `icon.set-missing`: the configured app icon exists, as an `.appiconset` or (Xcode 26) as an
/// Icon Composer `.icon` (Icon Composer, docs/sources.md).
package struct AppIconReferenceKind: RuleKind {
    package static let name = "appicon-reference"
    package static let summary = "Checks that the configured app icon name names an .appiconset or an Icon Composer .icon."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let setMissing = RuleInfo(
        id: "icon.set-missing", severity: .error,
        summary:
            "The configured app icon (.reswatch.yaml, ASSETCATALOG_COMPILER_APPICON_NAME, CFBundleIconName) names no .appiconset and no Icon Composer .icon.",
        rationale: "actool: \"None of the input catalogs contained a matching app icon set named …\"; the app ships without an icon.",
        fix: "Rename the set (or the .icon) or the setting so they match (case matters).")

    package static let rules = [setMissing]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard let name = context.project.appIconName else { return }
        let sets = context.subjects(.assetSet).filter { $0.path.hasSuffix(".appiconset") }
        var names = sets.map { String(RelativePath.name($0.path).dropLast(".appiconset".count)) }
        // Xcode 26: an Icon Composer bundle of that name is the icon (when the target does not
        // compile it, iconcomposer.not-in-target says so: one cause, one finding).
        names += context.subjects(.iconComposer).map { String(RelativePath.name($0.path).dropLast(".icon".count)) }
        guard !names.contains(name) else { return }
        let (setting, path, line) = AppIconOrigin.of(name, in: context, project: subject.path)
        let near = names.first { $0.lowercased() == name.lowercased() }
        context.report(
            Self.setMissing, path: path, line: line,
            message: "app icon set '\(name)' (\(setting)) does not exist"
                + (near.map { "; there is '\($0)' (names are case-sensitive)" }
                    ?? (names.isEmpty
                        ? "; the project has no .appiconset and no Icon Composer .icon"
                        : "; icons found: \(names.sorted().joined(separator: ", "))"))
        )
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "the configured set exists",
            files: ExampleTrees.singleSize().merging(["App/.reswatch.yaml": ExampleTrees.config(extra: "app-icon: AppIcon\n")]) { _, b in b
            },
            passes: ["icon.set-missing"]),
        RuleExample(
            "app-icon names no set",
            files: ExampleTrees.singleSize().merging(["App/.reswatch.yaml": ExampleTrees.config(extra: "app-icon: Brand\n")]) { _, b in b },
            triggers: ["icon.set-missing"]),
    ]
}
