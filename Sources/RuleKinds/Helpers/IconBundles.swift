import RuleKit
import SystemCalls

/// The Icon Composer bundles (`X.icon`) of a project, by the icon name they give (X), and
/// whether the app target compiles them. Shared by the kinds that resolve an app icon name.
enum IconBundles {
    /// Root-relative paths of the project's `.icon` bundles called `name`.
    static func named(_ name: String, in context: EvaluationContext) -> [String] {
        context.subjects(.iconComposer).map(\.path).filter { RelativePath.name($0) == name + ".icon" }
    }

    /// The bundle called `name` that the app target compiles as an icon: one whose membership says
    /// so, or, when no target was read (no Xcode project), any bundle of that name.
    static func compiled(named name: String, in context: EvaluationContext) -> String? {
        let candidates = named(name, in: context)
        guard let membership = context.project.iconBundles else { return candidates.first }
        return candidates.first { membership.compiles($0) }
    }

    /// The Icon Composer bundle that replaces the app's `.appiconset` at `set` (root-relative):
    /// one of the same name the app target compiles. Xcode 26.1 and later use it for every OS
    /// version and ignore the set (modern-apple-resources.md §1.6: rules_apple "ignored when Icon
    /// Composer .icon bundles are present"), so nothing of the set ships and it is judged only by
    /// iconcomposer.shadowed-appiconset. A set of another target's folder is not the app's.
    static func shadowing(set: String, in context: EvaluationContext) -> String? {
        guard set.hasSuffix(".appiconset"), !context.subjects(.iconComposer).isEmpty,
            context.project.otherTarget(containing: set) == nil
        else { return nil }
        return compiled(named: String(RelativePath.name(set).dropLast(".appiconset".count)), in: context)
    }

    /// The names of every bundle the app target compiles (all of them when no target was read).
    static func compiledNames(in context: EvaluationContext) -> Set<String> {
        let membership = context.project.iconBundles
        var names = Set<String>()
        for subject in context.subjects(.iconComposer) {
            if let membership, !membership.compiles(subject.path) { continue }
            names.insert(String(RelativePath.name(subject.path).dropLast(".icon".count)))
        }
        return names
    }
}
