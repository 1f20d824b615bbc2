import RuleKit

/// What of a tree reswatch judges (never-silent: a folder with nothing to check is not a pass).
/// Counts subjects by kind; a project counts when a marker makes it one (`.xcodeproj`,
/// `project.yml`, `Project.swift`, `.reswatch.yaml`). Source files, vendored frameworks and loose
/// PNGs no Info.plist names are read only on behalf of an app, so alone they are nothing to check.
public struct Coverage: Sendable, Equatable {
    /// Subjects reswatch judges, by kind.
    public var judged: [SubjectKind: Int] = [:]
    /// Files and folders seen that are judged only for an app (sources, frameworks, loose PNGs).
    public var supporting: [SubjectKind: Int] = [:]
    /// Folders an Xcode project, XcodeGen or Tuist manifest or `.reswatch.yaml` makes a project.
    public var projects = 0
    /// Files seen in the scope (build folders excluded).
    public var files = 0

    public init() {}

    /// Nothing reswatch knows how to judge.
    public var isEmpty: Bool { projects == 0 && judged.values.allSatisfy { $0 == 0 } }

    /// Judged subjects and projects together.
    public var judgedCount: Int { projects + judged.values.reduce(0, +) }

    /// Kinds that are judged only on behalf of an app.
    public static let supportingKinds: Set<SubjectKind> = [.source, .framework, .loosePNG, .project]

    /// What reswatch looks for, said when it finds none of it.
    public static let lookedFor =
        "an Xcode project (.xcodeproj), an XcodeGen project.yml, a Tuist Project.swift, a .reswatch.yaml, an asset catalog "
        + "(.xcassets), an Info.plist, a launch storyboard or image, an .lproj folder, a Settings.bundle, an app icon, an "
        + "Icon Composer .icon or a privacy manifest"

    /// "13 files: 13 source files" — what was found instead.
    public var foundInstead: String {
        var parts: [String] = []
        let names: [(SubjectKind, String)] = [(.source, "source file"), (.loosePNG, "PNG no Info.plist names"), (.framework, "framework")]
        for (kind, name) in names {
            if let n = supporting[kind], n > 0 { parts.append("\(n) \(name)\(n == 1 ? "" : "s")") }
        }
        let files = "\(files) file\(files == 1 ? "" : "s")"
        return parts.isEmpty ? files : "\(files), among them \(parts.joined(separator: ", "))"
    }

    mutating func add(_ kind: SubjectKind, _ count: Int = 1) {
        if Self.supportingKinds.contains(kind) { supporting[kind, default: 0] += count } else { judged[kind, default: 0] += count }
    }
}

extension Engine {
    /// What the whole tree holds that reswatch judges (cheap: counts per project and kind).
    public var coverage: Coverage {
        var c = Coverage()
        subjects.forEachGroup { kind, nodes, _ in c.add(kind, nodes.count) }
        c.projects = projectMarkers(under: [""])
        c.files = tree.fileCount
        return c
    }

    /// What the paths (root-relative folders or files; "" is the whole root) hold that reswatch judges.
    public func coverage(under scopes: [String]) -> Coverage {
        if scopes.contains("") { return coverage }
        func inScope(_ path: String) -> Bool {
            scopes.contains { path == $0 || path.hasPrefix($0 + "/") }
        }
        var c = Coverage()
        subjects.forEachGroup { kind, nodes, _ in
            for node in nodes where inScope(tree.path(of: node)) { c.add(kind) }
        }
        c.projects = projectMarkers(under: scopes)
        for scope in scopes { c.files += tree.fileCount(under: scope) }
        return c
    }

    /// What one project (by its directory) holds that reswatch judges.
    public func coverage(ofProject directory: String) -> Coverage {
        var c = Coverage()
        for kind in SubjectKind.allCases { c.add(kind, subjects.count(kind, inProject: directory, tree: tree)) }
        c.projects = projectMarkerDirectories.contains(directory) ? 1 : 0
        c.files = tree.fileCount(under: directory)
        return c
    }

    private func projectMarkers(under scopes: [String]) -> Int {
        projectMarkerDirectories.filter { dir in scopes.contains { $0.isEmpty || dir == $0 || dir.hasPrefix($0 + "/") } }.count
    }
}
