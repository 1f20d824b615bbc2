import Findings
import ProjectModel
import RuleEngine
import SystemCalls

/// What a repair sees: the files of one root as the plan has left them so far (a second repair
/// of the same Contents.json edits the first one's result), and the projects' contexts.
package final class RepairContext {
    package let root: String
    package let projects: [ProjectContext]
    package let options: RepairOptions
    private var planned: [String: [UInt8]] = [:]

    package init(root: String, projects: [ProjectContext], options: RepairOptions = RepairOptions()) {
        self.root = root
        self.projects = projects
        self.options = options
    }

    func absolute(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    /// A file's bytes as the plan has them: nil when it is missing, not a regular file (a link,
    /// a FIFO: a repair never writes through them) or too large.
    package func read(_ path: String) -> [UInt8]? {
        if removed.contains(path) { return nil }
        if let bytes = planned[path] { return bytes }
        guard RepairPaths.isSafe(path), (try? FileSystem.status(absolute(path)))?.kind == .regular else { return nil }
        return try? FileSystem.readFile(absolute(path), limit: FileLimits.bytes(for: path))
    }

    /// Names in a folder (planned renames applied).
    package func list(_ folder: String) -> [String] {
        var names = Set(((try? FileSystem.listDirectory(absolute(folder))) ?? []).filter { !$0.isDirectory }.map(\.name))
        for (from, to) in renamed where RelativePath.parent(from) == folder || RelativePath.parent(to) == folder {
            if RelativePath.parent(from) == folder { names.remove(RelativePath.name(from)) }
            if RelativePath.parent(to) == folder { names.insert(RelativePath.name(to)) }
        }
        for path in removed where RelativePath.parent(path) == folder { names.remove(RelativePath.name(path)) }
        return names.sorted()
    }

    /// The names of the folders in a folder.
    func folders(in folder: String) -> [String] {
        ((try? FileSystem.listDirectory(absolute(folder))) ?? []).filter(\.isDirectory).map(\.name).sorted()
    }

    /// The `project.pbxproj` files of the `.xcodeproj` folders in a folder.
    func pbxprojs(in folder: String) -> [String] {
        folders(in: folder).filter { $0.hasSuffix(".xcodeproj") }.map {
            RelativePath.join(RelativePath.join(folder, $0), "project.pbxproj")
        }
        .filter { read($0) != nil }
    }

    package func exists(_ path: String) -> Bool {
        if removed.contains(path) { return false }
        if planned[path] != nil || renamed.contains(where: { $0.to == path }) { return true }
        if renamed.contains(where: { $0.from == path }) { return false }
        return (try? FileSystem.status(absolute(path))) != nil
    }

    private var renamed: [(from: String, to: String)] = []
    private var removed: Set<String> = []
    /// App icon sets this plan made single-size (`--single-size`).
    var convertedSets: Set<String> = []

    /// A file an earlier repair of the plan removes: its findings go with it.
    func isRemoved(_ path: String) -> Bool { removed.contains(path) }

    /// The project a path belongs to (the deepest whose directory holds it).
    package func project(of path: String) -> ProjectContext? {
        projects.filter { RelativePath.isWithin(path, $0.directory) }.max { $0.directory.count < $1.directory.count }
    }

    /// A file's new bytes, remembered so later repairs build on them. The change's `original` is
    /// the file as this repair found it (the disk's, or an earlier repair's result): its diff shows
    /// this repair alone; `RepairPlan.writes` keeps the disk's for the whole run.
    func write(_ path: String, _ bytes: [UInt8]) -> FileChange {
        let before = read(path)
        planned[path] = bytes
        return .write(path: path, original: before, new: bytes)
    }

    func rename(_ from: String, _ to: String) -> FileChange {
        renamed.append((from, to))
        return .rename(from: from, to: to)
    }

    /// A file the plan removes (nil when it cannot be read: then it is not removed).
    func remove(_ path: String) -> FileChange? {
        guard let bytes = read(path) else { return nil }
        removed.insert(path)
        planned[path] = nil
        return .remove(path: path, original: bytes)
    }
}

/// Paths a repair may touch: root-relative, no `..`, nothing absolute.
package enum RepairPaths {
    package static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }
}

/// What the person chose for repairs that need a choice.
package struct RepairOptions: Sendable {
    /// The colour a transparent App Store icon is laid over (none: such an icon is left).
    package var background: (red: UInt8, green: UInt8, blue: UInt8)?
    /// A legacy (all sizes) iOS app icon set with missing or wrongly sized icons is made a
    /// single-size set instead (one 1024 image; Xcode 14+ makes every size from it).
    package var singleSize: Bool

    package init(background: (red: UInt8, green: UInt8, blue: UInt8)? = nil, singleSize: Bool = false) {
        self.background = background
        self.singleSize = singleSize
    }

    /// `#rrggbb`, `rrggbb`, `white` or `black`.
    package static func color(_ text: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        switch text.lowercased() {
        case "white": return (255, 255, 255)
        case "black": return (0, 0, 0)
        default:
            let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
            guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
            return (UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
        }
    }
}
