import ArgumentParser
import RuleEngine
import RuleKinds
import RuleKit

/// Completes a rule id from the shipped modules (and the engine's own ids).
enum RuleIDCompletion {
    static let kind = CompletionKind.custom { _, _, prefix in
        let ids = ShippedModules.ruleSet(registry: BuiltinKinds.registry).allRuleInfos.map(\.id) + EngineRules.all.map(\.id)
        return Set(ids).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
