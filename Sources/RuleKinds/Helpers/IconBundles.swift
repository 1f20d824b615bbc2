import RuleEngine
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
