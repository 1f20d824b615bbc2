import RuleEngine

/// `icon.set-missing`: the configured app icon set exists.
public struct AppIconReferenceKind: RuleKind {
    public static let name = "appicon-reference"
    public static let summary = "Checks that the configured app icon set name names an .appiconset."
    public static let subjects: Set<SubjectKind> = [.project]

    public static let setMissing = RuleInfo(
        id: "icon.set-missing", severity: .error,
        summary: "The configured app icon set (.reswatch.yaml, ASSETCATALOG_COMPILER_APPICON_NAME, CFBundleIconName) names no .appiconset.",
        rationale: "actool: \"None of the input catalogs contained a matching app icon set named …\"; the app ships without an icon.",
        fix: "Rename the set or the setting so they match (case matters).")

    public static let rules = [setMissing]

    public init(parameters: ModuleParameters) throws(ModuleError) { try parameters.expectOnly([]) }

    public func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard let name = context.project.appIconName else { return }
        let sets = context.subjects(.assetSet).filter { $0.path.hasSuffix(".appiconset") }
        let names = sets.map { String(RelativePath.name($0.path).dropLast(".appiconset".count)) }
        guard !names.contains(name) else { return }
        let source = context.project.sources["app-icon"]?.rawValue ?? "configuration"
        let near = names.first { $0.lowercased() == name.lowercased() }
        context.report(
            Self.setMissing, path: subject.path,
            message: "app icon set '\(name)' (from \(source)) does not exist"
                + (near.map { "; there is '\($0)' (names are case-sensitive)" }
                    ?? (names.isEmpty ? "; the project has no .appiconset" : "; sets found: \(names.sorted().joined(separator: ", "))")))
    }

    public static let examples: [RuleExample] = [
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
