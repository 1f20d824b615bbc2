import RuleKit
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
                // On the name's bytes: a String for every entry of the tree was most of this
                // loop, which a scan runs on one thread.
                switch tree.withName(of: child, { Self.marker($0, isDirectory: tree.isDirectory(node: child)) }) {
                case .strong:
                    path = path ?? tree.path(of: dir)
                    strong.insert(path!)
                case .weak:
                    path = path ?? tree.path(of: dir)
                    if !path!.hasSuffix(".bundle") { weak.insert(path!) }
                case nil: break
                }
            }
        }
    }

    enum Marker { case strong, weak }

    /// What a folder entry's name makes of its folder: a project (`.reswatch.yaml`, an
    /// `*.xcodeproj` folder, XcodeGen's project.yml, Tuist's Project.swift), a project failing a
    /// stronger one (an Info.plist), or nothing.
    static func marker(_ name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Marker? {
        if isDirectory { return RelativePath.hasSuffix(name, ".xcodeproj") ? .strong : nil }
        if RelativePath.equals(name, ".reswatch.yaml") || RelativePath.equals(name, "project.yml")
            || RelativePath.equals(name, "Project.swift")
        {
            return .strong
        }
        return SubjectClassifier.isInfoPlist(name) ? .weak : nil
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

    /// Whether a path's name makes it a project marker (its appearance or removal re-scopes
    /// projects), as a folder or as a file: the path may be gone, and what it was with it.
    static func isMarker(_ path: String) -> Bool {
        RelativePath.withBytes(of: path) { bytes in
            let name = RelativePath.name(in: bytes)
            return marker(name, isDirectory: true) != nil || marker(name, isDirectory: false) != nil
        }
    }
}
