import Findings
import RuleKit
import SystemCalls

/// `iconcomposer.not-in-target`, `iconcomposer.shadowed-appiconset`,
/// `iconcomposer.unsupported-platform`: an Icon Composer icon is wired to its target as Xcode 26
/// needs. Sources: Icon Composer, Xcode 26 release notes (docs/sources.md).
package struct IconComposerTargetKind: RuleKind {
    package static let name = "icon-composer-target"
    package static let summary = "Checks that the app's Icon Composer icons (.icon) are compiled by its target, and only where they can be."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let notInTarget = RuleInfo(
        id: "iconcomposer.not-in-target", severity: .error,
        summary:
            "The app icon name names a .icon that is on disk but that the target does not compile as an icon (not a resource, or added as a plain folder), and no .appiconset has that name.",
        rationale:
            "actool compiles a .icon only when it is an input of the target's asset-catalog compile (file type folder.iconcomposer.icon); otherwise it is copied raw and the build fails with \"None of the input catalogs contained a matching … app icon set named …\" (tuist/XcodeProj #1161, XcodeGen #1556).",
        fix:
            "Add the .icon to the target's Copy Bundle Resources phase with the type Icon Composer Icon (or into a folder the target synchronizes)."
    )
    package static let shadowedAppIconSet = RuleInfo(
        id: "iconcomposer.shadowed-appiconset", severity: .warning,
        summary: "An .appiconset has the same name as a .icon the target compiles.",
        rationale:
            "Apple: an Icon Composer file \"replaces any existing icon asset catalog\"; from Xcode 26.1 the .icon is used for every OS version, so the set is dead weight, and a same-name set has failed App Store validation (WordPress-iOS #24850).",
        fix: "Delete the .appiconset, or rename it if an older Xcode must still build with it.")
    package static let unsupportedPlatform = RuleInfo(
        id: "iconcomposer.unsupported-platform", severity: .error,
        summary: "A .icon is the app icon of a tvOS or visionOS target.",
        rationale:
            "Icon Composer icons are for iOS, iPadOS, macOS and watchOS; Apple sends tvOS and visionOS targets to asset-catalog icons (brand assets, image stacks), and rules_apple refuses the combination.",
        fix: "Give the target an asset-catalog icon: a .brandassets App Icon & Top Shelf set (tvOS) or a .solidimagestack (visionOS).")

    package static let rules = [notInTarget, shadowedAppIconSet, unsupportedPlatform]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let bundles = context.subjects(.iconComposer).map(\.path)
        guard !bundles.isEmpty else { return }
        let sets = context.subjects(.assetSet).map(\.path).filter { $0.hasSuffix(".appiconset") }
        let setNames = Set(sets.map { String(RelativePath.name($0).dropLast(".appiconset".count)) })
        checkMembership(bundles: bundles, setNames: setNames, project: subject.path, in: context)
        let compiled = IconBundles.compiledNames(in: context)
        for set in sets.sorted() {
            let name = String(RelativePath.name(set).dropLast(".appiconset".count))
            guard compiled.contains(name), context.project.otherTarget(containing: set) == nil,
                let bundle = IconBundles.compiled(named: name, in: context)
            else { continue }
            context.report(
                Self.shadowedAppIconSet, path: RelativePath.join(set, "Contents.json"), line: 1,
                message:
                    "\(RelativePath.name(set)) has the name of the Icon Composer icon \(bundle), which Xcode 26.1 and later use instead of it for every OS version",
                related: [RelativePath.join(bundle, "icon.json")])
        }
        checkPlatforms(bundles: bundles, in: context)
    }

    /// The app's icon names (primary and alternates) that resolve to a `.icon` the target leaves out.
    func checkMembership(bundles: [String], setNames: Set<String>, project: String, in context: EvaluationContext) {
        guard let membership = context.project.iconBundles else { return }
        var names = context.project.appIconName.map { [$0] } ?? []
        names += context.project.alternateAppIconNames
        for name in names where !setNames.contains(name) {
            let candidates = bundles.filter { RelativePath.name($0) == name + ".icon" }
            guard !candidates.isEmpty, !candidates.contains(where: membership.compiles) else { continue }
            let bundle = candidates.sorted()[0]
            let why: String
            if case .notAnIcon(let how) = membership.verdict(for: bundle) {
                why = how
            } else {
                why =
                    "target \(membership.target) does not bundle it (it is in no Copy Bundle Resources phase and no folder the target synchronizes)"
            }
            let (setting, path, line) = AppIconOrigin.of(name, in: context, project: project)
            context.report(
                Self.notInTarget, path: path, line: line,
                message:
                    "app icon '\(name)' (\(setting)) is the Icon Composer icon \(bundle), but \(why); actool finds no icon of that name",
                related: [RelativePath.join(bundle, "icon.json")])
        }
    }

    /// tvOS and visionOS targets whose app icon is a `.icon` they compile (or, when the target
    /// lists no such file, a `.icon` of that name in its folder).
    func checkPlatforms(bundles: [String], in context: EvaluationContext) {
        for target in context.project.otherTargets where target.platform == .tvOS || target.platform == .visionOS {
            guard let name = target.appIconName, let membership = target.iconBundles else { continue }
            let candidates = bundles.filter { RelativePath.name($0) == name + ".icon" }
            guard let bundle = candidates.first(where: membership.compiles) else { continue }
            context.report(
                Self.unsupportedPlatform, path: RelativePath.join(bundle, "icon.json"), line: 1,
                message:
                    "\(target.name) (\(target.kind)) takes its app icon '\(name)' from the Icon Composer icon \(bundle); \(target.platform.rawValue) apps need an asset-catalog icon"
            )
        }
    }
}
