import SystemCalls

/// Which project each path belongs to (rules.md, "Project context"): the nearest ancestor holding a
/// `.reswatch.yaml` or an `*.xcodeproj`; failing both, the nearest holding an Info.plist; else the root.
struct ProjectIndex: Sendable, Equatable {
    private(set) var strong: Set<String> = []
    private(set) var weak: Set<String> = []

    init(tree: ResourceTree) {
        tree.forEachDirectory { dir, children in
            var path: String?
            for child in children where tree.isLive(child) {
                let name = tree.name(of: child)
                let isDirectory = tree.isDirectory(node: child)
                if (name == ".reswatch.yaml" && !isDirectory) || (isDirectory && name.hasSuffix(".xcodeproj"))
                    || ((name == "project.yml" || name == "Project.swift") && !isDirectory)
                {
                    path = path ?? tree.path(of: dir)
                    strong.insert(path!)
                } else if !isDirectory && SubjectClassifier.isInfoPlist(name) {
                    path = path ?? tree.path(of: dir)
                    if !path!.hasSuffix(".bundle") { weak.insert(path!) }
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
