import Foundation
import RuleEngine
import RuleKinds

/// Where the shipped `rules/` directory is: next to the installed binary, or in the source tree.
enum RuleLocations {
    static func shippedDirectory() -> String? {
        let env = ProcessInfo.processInfo.environment
        if let explicit = env["RESWATCH_SHIPPED_RULES"], !explicit.isEmpty { return explicit }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let exePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? exe.path
        let binDir = (exePath as NSString).deletingLastPathComponent
        for candidate in [binDir + "/rules", binDir + "/../share/reswatch/rules"] where isDirectory(candidate) {
            return (candidate as NSString).standardizingPath
        }
        // Source tree: walk up from .build/<config>/ to the directory holding Package.swift.
        var dir = binDir
        while dir != "/" && !dir.isEmpty {
            if FileManager.default.fileExists(atPath: dir + "/Package.swift"), isDirectory(dir + "/rules") { return dir + "/rules" }
            dir = (dir as NSString).deletingLastPathComponent
        }
        return nil
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// Shipped, /etc, XDG, then --rules directories (a project's own .reswatch/rules load per project).
    static func loadRules(extra: [String]) -> RuleSet {
        let dirs = RuleModuleLoader.standardDirectories(
            shipped: shippedDirectory(), extra: extra, environment: ProcessInfo.processInfo.environment)
        return RuleModuleLoader.load(directories: dirs, registry: BuiltinKinds.registry)
    }
}
