import Findings
import ProjectModel
import SystemCalls
import Yams

/// The built-in kinds a module may name; RuleKinds provides the list.
public struct KindRegistry: Sendable {
    public let kinds: [any RuleKind.Type]

    public init(_ kinds: [any RuleKind.Type]) { self.kinds = kinds }

    public func kind(named name: String) -> (any RuleKind.Type)? { kinds.first { $0.name == name } }
    public var names: [String] { kinds.map { $0.name } }
}

/// One instantiated rule: a kind with the data of one module entry.
public struct LoadedRule: Sendable {
    public let rule: any RuleKind
    public let kindName: String
    /// "file:line" of the module entry; identifies the rule across the engine.
    public let source: String
    public let module: String
    public var reported: [RuleInfo] { rule.reportedRules }
    /// Ids that identify the rule for replacement (shared ids such as `rules.exec-failed` excluded).
    public var ids: Set<String> { Set(reported.map(\.id)).subtracting(RuleSet.sharedIDs) }
    /// Ids the rule may report.
    public var allowedIDs: Set<String> { Set(reported.map(\.id)) }
    /// The module file the rule comes from.
    public var file: String {
        guard let colon = source.lastIndex(of: ":") else { return source }
        return String(source[..<colon])
    }
}

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

/// Loads rule modules (YAML) from directories, in order.
public enum RuleModuleLoader {
    /// Largest module file read (a real module is a few KB; the icon tables are 15 KB).
    public static let moduleSizeLimit = 4 << 20

    /// Loads modules in order; a module that cannot be read is an error, and the others still load.
    /// `execRefusal` names why a file's `exec` rules must not run (nil: they may).
    public static func load(
        files: [ModuleFile], registry: KindRegistry, execRefusal: (String) -> String? = { _ in nil }
    ) -> RuleSet {
        var set = RuleSet()
        for file in files { set.merge(module(file, registry: registry, execRefusal: execRefusal)) }
        return set
    }

    /// One module file the way every loader reads it (`check`, the daemon with its last good
    /// versions, a project's own `.reswatch/rules`): parsed, or its read error; its `exec` rules
    /// dropped with an error naming the reason when `execRefusal` gives one.
    public static func module(_ file: ModuleFile, registry: KindRegistry, execRefusal: (String) -> String?) -> RuleSet {
        switch file.text {
        case .failure(let e):
            var set = RuleSet()
            set.add(errors: [e])
            return set
        case .success(let text):
            let module = parse(text, file: file.path, registry: registry)
            return execRefusal(file.path).map { module.withoutExec(from: $0) } ?? module
        }
    }

    /// Parses one module. Errors in one entry do not stop the other entries.
    public static func parse(_ text: String, file: String, registry: KindRegistry) -> RuleSet {
        var set = RuleSet()
        set.noteModule(file)
        let root: Node?
        switch YAMLLimits.compose(text) {
        case .success(let r): root = r
        case .failure(let p):
            set.add(errors: [ModuleError(file: file, line: p.line, message: "YAML syntax error: \(p.message)")])
            return set
        }
        guard let root, let map = root.mapping else {
            set.add(errors: [ModuleError(file: file, line: root?.line ?? 1, message: "a rule module is a mapping with a 'rules:' list")])
            return set
        }
        for key in map.keys {
            // "x-…" keys hold shared data for YAML anchors (x-rows: &rows … rows: *rows).
            guard let k = key.string, ["module", "description", "rules", "examples"].contains(k) || k.hasPrefix("x-") else {
                set.add(errors: [
                    ModuleError(
                        file: file, line: key.line,
                        message:
                            "unknown top-level key '\(key.string ?? "?")' (known: module, description, rules, examples, x-… for anchors)")
                ])
                continue
            }
        }
        let moduleName = map["module"]?.string ?? RelativePath.name(file)
        guard let entries = map["rules"]?.sequence else {
            set.add(errors: [ModuleError(file: file, line: map["rules"]?.line ?? root.line, message: "missing 'rules:' list")])
            return set
        }
        // A rule's source names it everywhere (its evaluations' keys, its timings, messages about
        // it): "file:line", with the column when entries share a line (a flow list, `rules: [{…},
        // {…}]`), so two rules are never taken for one.
        var entriesOnLine: [Int: Int] = [:]
        for entry in entries { entriesOnLine[entry.line ?? 0, default: 0] += 1 }
        func source(of entry: Node) -> String {
            let line = entry.line ?? 0
            guard entriesOnLine[line, default: 0] > 1, let column = entry.mark?.column else { return "\(file):\(line)" }
            return "\(file):\(line):\(column)"
        }
        var loaded: [LoadedRule] = []
        for entry in entries {
            guard let entryMap = entry.mapping else {
                set.add(errors: [ModuleError(file: file, line: entry.line, message: "each rule is a mapping with 'kind:'")])
                continue
            }
            guard let kindName = entryMap["kind"]?.string else {
                set.add(errors: [ModuleError(file: file, line: entry.line, message: "rule without 'kind:'")])
                continue
            }
            guard let kind = registry.kind(named: kindName) else {
                set.add(errors: [
                    ModuleError(
                        file: file, line: entryMap["kind"]?.line,
                        message: "unknown kind '\(kindName)' (known: \(registry.names.sorted().joined(separator: ", ")))")
                ])
                continue
            }
            var params = Node.Mapping([])
            for (k, v) in entryMap where k.string != "kind" { params[k] = v }
            let paramsNode = Node.mapping(Node.Mapping(Array(params), entry.tag, entry.mapping!.style, entry.mark))
            do {
                let rule = try kind.init(parameters: ModuleParameters(node: paramsNode, file: file))
                loaded.append(LoadedRule(rule: rule, kindName: kindName, source: source(of: entry), module: moduleName))
            } catch {
                set.add(errors: [error])
            }
        }
        set.add(loaded)
        if let examples = map["examples"] {
            switch ExampleParser.parse(examples, file: file) {
            case .success(let list): for e in list { set.addExample(moduleName, e) }
            case .failure(let e): set.add(errors: [e])
            }
        }
        return set
    }
}

extension RuleSet {
    mutating func merge(_ other: RuleSet) {
        add(other.rules)
        add(errors: other.errors)
        for f in other.moduleFiles { noteModule(f) }
        for e in other.moduleExamples { addExample(e.module, e.example) }
    }
}
