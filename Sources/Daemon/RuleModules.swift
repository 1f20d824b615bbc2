import Findings
import RuleEngine
import RuleKit

/// The daemon's rule modules: reloaded on SIGHUP or when a module file changes; a module that no
/// longer loads keeps its last good version, and its error is reported in `status`.
struct RuleModules {
    let sources: RuleSources
    let kinds: KindRegistry
    private var lastGood: [String: RuleSet] = [:]
    private(set) var current = RuleSet()
    private(set) var errors: [ModuleError] = []

    init(sources: RuleSources, kinds: KindRegistry) {
        self.sources = sources
        self.kinds = kinds
        reload()
    }

    mutating func reload() {
        var combined = RuleSet()
        var problems: [ModuleError] = []
        for file in sources.files() {
            if case .failure(let error) = file.text {
                problems.append(error)
                if let good = lastGood[file.path] { combined = combined.overlaid(with: good) }
                continue
            }
            let module = RuleModuleLoader.module(file, registry: kinds, execRefusal: sources.execRefusal)
            if module.errors.isEmpty {
                lastGood[file.path] = module
                combined = combined.overlaid(with: module)
            } else if let good = lastGood[file.path] {
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
