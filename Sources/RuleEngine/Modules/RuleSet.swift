import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// Rules ready to run, in load order, plus what failed to load.
public struct RuleSet: Sendable {
    /// Ids several rules report (about themselves); they never make one rule replace another.
    public static let sharedIDs: Set<String> = ["rules.exec-failed", "io.unreadable"]
    public private(set) var rules: [LoadedRule] = []
    public private(set) var errors: [ModuleError] = []
    public private(set) var moduleFiles: [String] = []
    /// Examples declared by the modules themselves (`examples:` in YAML).
    public private(set) var moduleExamples: [(module: String, example: RuleExample)] = []

    public init() {}

    /// Adds rules; a later rule that reports an id an earlier one reports replaces the earlier one.
    /// Adds rules; a rule from a later module that reports an id a rule of an earlier module reports
    /// replaces it. Rules of the same module file never replace each other (two kinds may share ids,
    /// as appicon-set and legacy-icons share icon.size-mismatch).
    public mutating func add(_ loaded: [LoadedRule]) {
        for rule in loaded {
            let ids = rule.ids
            rules.removeAll { $0.file != rule.file && !$0.ids.isDisjoint(with: ids) }
            rules.append(rule)
        }
    }

    public mutating func add(errors more: [ModuleError]) { errors += more }

    /// This set with another layered on top (a project's own modules).
    public func overlaid(with other: RuleSet) -> RuleSet {
        var copy = self
        copy.add(other.rules)
        copy.errors += other.errors
        copy.moduleFiles += other.moduleFiles
        copy.moduleExamples += other.moduleExamples
        return copy
    }

    /// This set without its `exec` rules, each reported as a module error naming its module and
    /// the opt-in: reswatch never runs a program that a checked tree (or a file another user owns)
    /// declares unless told to.
    public func withoutExec(from origin: String) -> RuleSet {
        var copy = self
        let exec = rules.filter { $0.kindName == "exec" }
        guard !exec.isEmpty else { return self }
        copy.rules.removeAll { $0.kindName == "exec" }
        for rule in exec {
            let line = rule.source.split(separator: ":").last.flatMap { Int($0) }
            copy.errors.append(
                ModuleError(
                    file: rule.file, line: line,
                    message:
                        "exec rule not run: it comes from \(origin), and reswatch runs no program a checked tree declares unless told to (--allow-project-exec, or allow-project-exec: true in the daemon config)"
                ))
        }
        return copy
    }

    public var allRuleInfos: [RuleInfo] {
        var seen = Set<String>()
        var out: [RuleInfo] = []
        for r in rules {
            for info in r.reported where seen.insert(info.id).inserted { out.append(info) }
        }
        return out.sorted { $0.id < $1.id }
    }

    mutating func noteModule(_ file: String) { moduleFiles.append(file) }
    mutating func addExample(_ module: String, _ example: RuleExample) { moduleExamples.append((module, example)) }
}

extension RuleSet {
    mutating func merge(_ other: RuleSet) {
        add(other.rules)
        add(errors: other.errors)
        for f in other.moduleFiles { noteModule(f) }
        for e in other.moduleExamples { addExample(e.module, e.example) }
    }
}
