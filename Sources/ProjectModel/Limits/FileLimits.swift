import SystemCalls

/// The largest file of each kind reswatch reads (documented in docs/security.md). No real project
/// comes near them; a larger file is `io.unreadable` (an error: it was not checked), and reading
/// it never costs gigabytes (a 50 MB Contents.json took 3.2 GB to parse).
public enum FileLimits {
    public static func bytes(for path: String) -> Int {
        let name = RelativePath.name(path)
        if name == "Contents.json" || name == "icon.json" { return 4 << 20 }
        if RelativePath.hasSuffix(name, ".svg", ignoringCase: true) { return 16 << 20 }
        if name == "project.pbxproj" { return 64 << 20 }
        if name.hasSuffix(".plist") || name.hasSuffix(".xcscheme") { return 8 << 20 }
        if name.hasSuffix(".xcprivacy") { return 1 << 20 }
        // Source files are scanned for required-reason APIs; a generated 100 MB one is not.
        if [".swift", ".m", ".mm", ".c", ".cc", ".cpp"].contains(where: { name.hasSuffix($0) }) { return 8 << 20 }
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.hasSuffix(".xcconfig") || name == "project.json" { return 1 << 20 }
        if name == "Project.swift" { return 128 << 10 }
        // A localization table is read whole and scanned by character (issue 59).
        if name.hasSuffix(".strings") || name.hasSuffix(".xcstrings") { return 8 << 20 }
        return 64 << 20
    }
}
