import RuleKit
import ShippedRules

/// The rule modules built into the binary (rules/*.yaml, embedded at build time).
public enum ShippedModules {
    public static var files: [ModuleFile] {
        ShippedRules.modules.map { ModuleFile(path: ShippedRules.displayPath($0.name), text: .success($0.text)) }
    }

    /// Whether a module path names one built into the binary (`<built-in>/rules/NAME`: no file
    /// path starts with `<`, every other module's path is absolute).
    static func isBuiltIn(_ path: String) -> Bool { path.hasPrefix(ShippedRules.displayPath("")) }

    /// The standard layering (built-in, /etc, XDG, then `extra`) for an environment.
    public static func sources(environment: [String: String], extra: [String] = []) -> RuleSources {
        RuleSources.standard(builtIn: files, environment: environment, extra: extra)
    }

    /// The built-in modules alone, loaded with the kinds of `registry` (`BuiltinKinds.registry`).
    public static func ruleSet(registry: KindRegistry) -> RuleSet { RuleModuleLoader.load(files: files, registry: registry) }
}
