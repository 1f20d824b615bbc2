import RuleKit
import ShippedRules

/// The rule modules built into the binary (rules/*.yaml, embedded at build time).
public enum ShippedModules {
    public static var files: [ModuleFile] {
        ShippedRules.modules.map { ModuleFile(path: ShippedRules.displayPath($0.name), text: .success($0.text)) }
    }

    /// Whether a module is one built into the binary: its name and its very text, not the name
    /// alone (a relative RESWATCH_SHIPPED_RULES of `<built-in>/rules` names files the same way).
    static func isBuiltIn(_ path: String, text: String) -> Bool { builtIn(path, text: text) != nil }

    static func builtIn(_ path: String, text: String) -> ShippedRules.Module? {
        let prefix = ShippedRules.displayPath("")
        guard path.hasPrefix(prefix) else { return nil }
        let name = path.dropFirst(prefix.count)
        return ShippedRules.modules.first { $0.name == name && $0.text == text }
    }

    /// A built-in module's composed tree from the binary, when it was compiled from this very
    /// text (see `ShippedRules.Precompiled`); nil otherwise, and the text is parsed.
    public static func precompiledTree(_ path: String, text: String) -> ModuleNode? {
        guard let module = builtIn(path, text: text), let compiled = module.precompiled,
            compiled.digest == ShippedRules.digest(text)
        else { return nil }
        return ModuleNode(encoded: compiled.tree)
    }

    /// The standard layering (built-in, /etc, XDG, then `extra`) for an environment.
    public static func sources(environment: [String: String], extra: [String] = []) -> RuleSources {
        RuleSources.standard(builtIn: files, environment: environment, extra: extra)
    }

    /// Each built-in module parsed with the kinds of `registry`, by its path.
    public static func parsed(registry: KindRegistry) -> [String: RuleSet] {
        var out: [String: RuleSet] = [:]
        for file in files {
            if case .success(let text) = file.text { out[file.path] = RuleModuleLoader.parse(text, file: file.path, registry: registry) }
        }
        return out
    }

    /// The built-in modules alone, loaded with the kinds of `registry` (`BuiltinKinds.registry`).
    public static func ruleSet(registry: KindRegistry) -> RuleSet { RuleModuleLoader.load(files: files, registry: registry) }
}
