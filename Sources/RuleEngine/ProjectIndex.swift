/// Which project each path belongs to (rules.md, "Project context"): the nearest ancestor holding a
/// `.reswatch.yaml` or an `*.xcodeproj`; failing both, the nearest holding an Info.plist; else the root.
struct ProjectIndex: Sendable, Equatable {
    private(set) var strong: Set<String> = []
    private(set) var weak: Set<String> = []

    init(tree: ResourceTree) {
        for (dir, entries) in tree.directories {
            for e in entries {
                if (e.name == ".reswatch.yaml" && !e.isDirectory) || (e.isDirectory && e.name.hasSuffix(".xcodeproj"))
                    || ((e.name == "project.yml" || e.name == "Project.swift") && !e.isDirectory)
                {
                    strong.insert(dir)
                } else if !e.isDirectory && SubjectClassifier.isInfoPlist(e.name) && !dir.hasSuffix(".bundle") {
                    weak.insert(dir)
                }
            }
        }
    }

    /// Directories that are projects.
    var directories: Set<String> {
        var all = strong
        for w in weak where project(containing: w) == w { all.insert(w) }
        return all
    }

    /// The project of a path (a directory counts as inside itself).
    func project(containing path: String) -> String {
        var nearestWeak: String?
        var current = path
        while true {
            if strong.contains(current) { return current }
            if nearestWeak == nil, weak.contains(current) { nearestWeak = current }
            if current.isEmpty { break }
            current = RelativePath.parent(current)
        }
        return nearestWeak ?? ""
    }

    /// Whether a path's name makes it a project marker (its appearance or removal re-scopes projects).
    static func isMarker(_ path: String) -> Bool {
        let name = RelativePath.name(path)
        return name == ".reswatch.yaml" || name.hasSuffix(".xcodeproj") || name == "project.yml" || name == "Project.swift"
            || SubjectClassifier.isInfoPlist(name)
    }
}
