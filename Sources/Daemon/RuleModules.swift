import RuleEngine
import RuleKinds

/// The daemon's rule modules: reloaded on SIGHUP or when a module file changes; a module that no
/// longer loads keeps its last good version, and its error is reported in `status`.
struct RuleModules {
    let directories: [String]
    private var lastGood: [String: RuleSet] = [:]
    private(set) var current = RuleSet()
    private(set) var errors: [ModuleError] = []

    init(directories: [String]) {
        self.directories = directories
        reload()
    }

    mutating func reload() {
        var combined = RuleSet()
        var problems: [ModuleError] = []
        for dir in directories {
            guard let entries = try? FileSystem.listDirectory(dir) else { continue }
            for entry in entries where !entry.isDirectory && (entry.name.hasSuffix(".yaml") || entry.name.hasSuffix(".yml")) {
                let path = dir + "/" + entry.name
                let module: RuleSet
                do {
                    let bytes = try FileSystem.readFile(path, limit: 4 << 20)
                    module = RuleModuleLoader.parse(String(decoding: bytes, as: UTF8.self), file: path, registry: BuiltinKinds.registry)
                } catch {
                    problems.append(ModuleError(file: path, line: nil, message: "cannot read: \(error.reason)"))
                    if let good = lastGood[path] { combined = combined.overlaid(with: good) }
                    continue
                }
                if module.errors.isEmpty {
                    lastGood[path] = module
                    combined = combined.overlaid(with: module)
                } else if let good = lastGood[path] {
                    problems += module.errors.map {
                        ModuleError(
                            file: $0.file, line: $0.line, message: $0.message + " (the last good version of this module stays in force)")
                    }
                    combined = combined.overlaid(with: good.withoutErrors)
                } else {
                    problems += module.errors
                    combined = combined.overlaid(with: module.withoutErrors)
                }
            }
        }
        current = combined
        errors = problems
    }
}

extension RuleSet {
    /// The same rules without their load errors (errors are reported separately by the daemon).
    var withoutErrors: RuleSet {
        var copy = RuleSet()
        copy.add(rules)
        return copy
    }
}
