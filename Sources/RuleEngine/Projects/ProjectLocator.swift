import Findings
import RuleKit
import SystemCalls

/// Finds the project a path given on the command line belongs to, so that `check PATH` judges a
/// folder, a set, a Contents.json or a single file with its project's full context.
public enum ProjectLocator {
    /// The nearest ancestor directory (the path itself if a directory) holding a `.reswatch.yaml`
    /// or an `*.xcodeproj`; failing that, the nearest holding an app Info.plist; failing that, the
    /// directory above any asset catalog, set or bundle the path is in. Never climbs above the
    /// file system the path is on (a mount point) nor above `/`.
    public static func root(for absolute: String, isDirectory: Bool) -> String {
        let start = isDirectory ? absolute : parent(absolute)
        let device = (try? FileSystem.statusFollowingLinks(start))?.device
        var nearestWeak: String?
        var dir = start
        while true {
            // Unsorted, names tested on their bytes: the climb lists every folder above the path,
            // and sorting /tmp's 1,700 names was 9 M instructions of a check's start.
            if let entries = try? FileSystem.listDirectory(dir, sorted: false) {
                if entries.contains(where: { isMarker($0) }) {
                    return dir
                }
                if nearestWeak == nil, !isContainer(dir),
                    entries.contains(where: { !$0.isDirectory && SubjectClassifier.isInfoPlist($0.name) })
                {
                    nearestWeak = dir
                }
            }
            if dir == "/" { break }
            let up = parent(dir)
            guard let d = device, (try? FileSystem.statusFollowingLinks(up))?.device == d else { break }
            dir = up
        }
        if let nearestWeak { return nearestWeak }
        // No project: start above any container (an asset set alone is judged inside its folder).
        var fallback = start
        while isContainer(fallback) && fallback != "/" { fallback = parent(fallback) }
        return fallback
    }

    /// A `.reswatch.yaml`, `project.yml` or `Project.swift` file, or an `*.xcodeproj` folder: what
    /// makes a folder a project for the index (`ProjectIndex.marker`), an Info.plist aside.
    static func isMarker(_ entry: DirectoryEntry) -> Bool {
        RelativePath.withBytes(of: entry.name) { ProjectIndex.marker($0, isDirectory: entry.isDirectory) == .strong }
    }

    /// Asset catalogs, sets, localizations and bundles: resources, never a project's own folder.
    static func isContainer(_ dir: String) -> Bool {
        let name = RelativePath.name(dir)
        return SubjectClassifier.assetSetType(ofDirectory: name) != nil || name.hasSuffix(".xcassets") || name.hasSuffix(".lproj")
            || name.hasSuffix(".bundle")
    }

    static func parent(_ absolute: String) -> String {
        let p = RelativePath.parent(absolute)
        return p.isEmpty ? "/" : p
    }
}

/// The part of a root that a command asked about: findings are shown when their path lies under
/// it. A `Contents.json` stands for its whole set (a set's findings are about its folder).
public struct DiagnosticScope: Sendable, Hashable {
    /// Root-relative; "" is the whole root.
    public let path: String

    public init(relativePath: String) {
        let name = RelativePath.name(relativePath)
        let parent = RelativePath.parent(relativePath)
        if name == "Contents.json", SubjectClassifier.assetSetType(ofDirectory: RelativePath.name(parent)) != nil {
            path = parent
        } else {
            path = relativePath
        }
    }

    public func contains(_ d: Diagnostic) -> Bool { RelativePath.isWithin(d.path, path) }
    public func contains(path p: String) -> Bool { RelativePath.isWithin(p, path) }
}
