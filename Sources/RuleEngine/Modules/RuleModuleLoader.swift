import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// Loads rule modules (YAML) from directories, in order.
public enum RuleModuleLoader {
    /// Largest module file read (a real module is a few KB; the icon tables are 15 KB).
    public static let moduleSizeLimit = 4 << 20

    /// Loads modules in order; a module that cannot be read is an error, and the others still load.
    /// `execRefusal` names why a file's `exec` rules must not run (nil: they may). `builtIn`, when
    /// given, answers the built-in modules already parsed with the same registry (by path; asked
    /// only for a file whose text is the embedded one): `check` parses them while its command
    /// line is read (`RuleLoading.preload`).
    public static func load(
        files: [ModuleFile], registry: KindRegistry, execRefusal: (String) -> String? = { _ in nil },
        builtIn: (() -> [String: RuleSet])? = nil
    ) -> RuleSet {
        var set = RuleSet()
        for file in files { set.merge(module(file, registry: registry, execRefusal: execRefusal, builtIn: builtIn)) }
        return set
    }

    /// One module file the way every loader reads it (`check`, the daemon with its last good
    /// versions, a project's own `.reswatch/rules`): parsed, or its read error; its `exec` rules
    /// dropped with an error naming the reason when `execRefusal` gives one.
    public static func module(
        _ file: ModuleFile, registry: KindRegistry, execRefusal: (String) -> String?, builtIn: (() -> [String: RuleSet])? = nil
    ) -> RuleSet {
        switch file.text {
        case .failure(let e):
            var set = RuleSet()
            set.add(errors: [e])
            return set
        case .success(let text):
            let module =
                builtIn.flatMap { parsed in ShippedModules.isBuiltIn(file.path, text: text) ? parsed()[file.path] : nil }
                ?? parse(text, file: file.path, registry: registry)
            return execRefusal(file.path).map { module.withoutExec(from: $0) } ?? module
        }
    }

    /// Parses one module. Errors in one entry do not stop the other entries.
    public static func parse(_ text: String, file: String, registry: KindRegistry) -> RuleSet {
        var set = RuleSet()
        set.noteModule(file)
        let root: ModuleNode?
        if let compiled = ShippedModules.precompiledTree(file, text: text) {
            root = compiled
        } else {
            switch YAMLLimits.compose(text, bounded: !ShippedModules.isBuiltIn(file, text: text)) {
            case .success(let r): root = r.map(ModuleNode.init)
            case .failure(let p):
                set.add(errors: [ModuleError(file: file, line: p.line, message: "YAML syntax error: \(p.message)")])
                return set
            }
        }
        guard let root, let map = root.mapping else {
            set.add(errors: [ModuleError(file: file, line: root?.line ?? 1, message: "a rule module is a mapping with a 'rules:' list")])
            return set
        }
        for key in map.map(\.key) {
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
        let moduleName = root["module"]?.string ?? RelativePath.name(file)
        guard let entries = root["rules"]?.sequence else {
            set.add(errors: [ModuleError(file: file, line: root["rules"]?.line ?? root.line, message: "missing 'rules:' list")])
            return set
        }
        // A rule's source names it everywhere (its evaluations' keys, its timings, messages about
        // it): "file:line", with the column when entries share a line (a flow list, `rules: [{…},
        // {…}]`), so two rules are never taken for one.
        var entriesOnLine: [Int: Int] = [:]
        for entry in entries { entriesOnLine[entry.line ?? 0, default: 0] += 1 }
        func source(of entry: ModuleNode) -> String {
            let line = entry.line ?? 0
            guard entriesOnLine[line, default: 0] > 1, let column = entry.column else { return "\(file):\(line)" }
            return "\(file):\(line):\(column)"
        }
        var loaded: [LoadedRule] = []
        for entry in entries {
            switch rule(entry, file: file, source: source(of: entry), module: moduleName, registry: registry) {
            case .success(let rule): loaded.append(rule)
            case .failure(let error): set.add(errors: [error])
            }
        }
        set.add(loaded)
        if let examples = root["examples"] {
            switch ExampleParser.parse(examples, file: file) {
            case .success(let list): for e in list { set.addExample(moduleName, e) }
            case .failure(let e): set.add(errors: [e])
            }
        }
        return set
    }

    /// One `- kind: …` entry, made into its kind with its parameters (only those the kind declares).
    static func rule(_ entry: ModuleNode, file: String, source: String, module moduleName: String, registry: KindRegistry) -> Result<
        LoadedRule, ModuleError
    > {
        guard let entryMap = entry.mapping else {
            return .failure(ModuleError(file: file, line: entry.line, message: "each rule is a mapping with 'kind:'"))
        }
        guard let kindName = entry["kind"]?.string else {
            return .failure(ModuleError(file: file, line: entry.line, message: "rule without 'kind:'"))
        }
        guard let kind = registry.kind(named: kindName) else {
            return .failure(
                ModuleError(
                    file: file, line: entry["kind"]?.line,
                    message: "unknown kind '\(kindName)' (known: \(registry.names.sorted().joined(separator: ", ")))"))
        }
        // Every key but `kind`, in order; a repeated key keeps its first place and its last value
        // (as Yams' mapping assignment did).
        var params: [ModuleNode.Pair] = []
        var placeOf: [String: Int] = [:]
        for pair in entryMap where pair.key.string != "kind" {
            if let k = pair.key.string, let place = placeOf[k] {
                params[place] = ModuleNode.Pair(key: params[place].key, value: pair.value)
            } else {
                if let k = pair.key.string { placeOf[k] = params.count }
                params.append(pair)
            }
        }
        let paramsNode = ModuleNode.mapping(params, entry.mark)
        do throws(ModuleError) {
            // The kind's declared parameters are the only ones it takes: a typo is an error, and
            // no kind lists its names a second time.
            let parameters = ModuleParameters(node: paramsNode, file: file)
            try parameters.expectOnly(Set(kind.parameters.keys))
            return .success(
                LoadedRule(rule: try kind.init(parameters: parameters), kindName: kindName, source: source, module: moduleName))
        } catch {
            return .failure(error)
        }
    }
}
