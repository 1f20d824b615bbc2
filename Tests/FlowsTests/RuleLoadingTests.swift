import Flows
import RuleEngine
import RuleKinds
import TestSupport
import Testing

/// `check` and `fix` parse the built-in modules on another thread while their command line is
/// read (RuleLoading.preload, issue 63): what they load must be what parsing the files gives.
@Suite struct RuleLoadingTests {
    static func summary(_ set: RuleSet) -> [String] {
        set.rules.map { "\($0.source) \($0.kindName) \($0.ids.sorted())" } + set.errors.map(\.description)
            + set.allRuleInfos.map { "\($0.id) \($0.severity)" }
    }

    @Test func preloadedBuiltInModulesLoadAsParsedOnes() throws {
        let home = try TempTree([:])
        let environment = ["XDG_CONFIG_HOME": home.path]
        RuleLoading.preload()
        let collected = CollectedOutput()
        let loaded = try RuleLoading.load(extra: [], environment: environment, output: collected.output)
        let parsed = RuleLoading.sources(extra: [], environment: environment).load(registry: BuiltinKinds.registry)
        #expect(!loaded.rules.isEmpty)
        #expect(Self.summary(loaded) == Self.summary(parsed))
    }

    /// A file is answered from the parsed built-in modules only when it is one: its text, not its name.
    @Test func onlyTheEmbeddedTextIsAnsweredFromThePreloadedModules() throws {
        let parsed = ShippedModules.parsed(registry: BuiltinKinds.registry)
        let icon = try #require(ShippedModules.files.first { $0.path.hasSuffix("/icon.yaml") })
        let renamed = ModuleFile(path: icon.path, text: .success("rules: []\n"))
        let set = RuleModuleLoader.load(files: [renamed], registry: BuiltinKinds.registry, builtIn: { parsed })
        #expect(set.rules.isEmpty && set.errors.isEmpty, "\(set.rules.map(\.source))")
        let same = RuleModuleLoader.load(files: [icon], registry: BuiltinKinds.registry, builtIn: { parsed })
        #expect(Self.summary(same) == Self.summary(RuleModuleLoader.load(files: [icon], registry: BuiltinKinds.registry)))
    }

    /// RESWATCH_SHIPPED_RULES replaces the built-in modules, preloaded or not.
    @Test func replacedBuiltInModulesAreNotTakenFromThePreload() throws {
        let rules = try TempTree(["only.yaml": .text("rules:\n  - kind: png-properties\n")])
        let home = try TempTree([:])
        RuleLoading.preload()
        let collected = CollectedOutput()
        let set = try RuleLoading.load(
            extra: [], environment: ["RESWATCH_SHIPPED_RULES": rules.path, "XDG_CONFIG_HOME": home.path], output: collected.output)
        #expect(!set.rules.isEmpty && set.rules.allSatisfy { $0.file.hasSuffix("/only.yaml") }, "\(set.rules.map(\.file))")
    }
}
