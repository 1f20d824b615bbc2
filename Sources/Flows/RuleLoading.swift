import Dispatch
import Foundation
import RuleEngine
import RuleKinds
import SystemCalls

/// The rule modules a flow runs with: those built into the binary, then /etc, XDG and `--rules`
/// directories (RESWATCH_SHIPPED_RULES replaces the built-in ones, for developers).
package enum RuleLoading {
    package static func sources(extra: [String], allowUntrustedExec: Bool = false, environment: [String: String]) -> RuleSources {
        var sources = ShippedModules.sources(environment: environment, extra: extra.map(FileSystem.absolutePath))
        sources.allowUntrustedExec = allowUntrustedExec
        return sources
    }

    /// Loads the rules; with no rule in force there is nothing to check, which must never pass as
    /// "no problems": the modules' errors are said and the flow fails with the reason.
    package static func load(
        extra: [String], allowUntrustedExec: Bool = false, environment: [String: String], output: FlowOutput
    ) throws(FlowFailure) -> RuleSet {
        let sources = sources(extra: extra, allowUntrustedExec: allowUntrustedExec, environment: environment)
        let set = sources.load(registry: BuiltinKinds.registry, builtIn: { builtInModules })
        try require(set, sources: sources, output: output)
        return set
    }

    /// The built-in modules parsed with the built-in kinds, once per process. A static constant:
    /// its first reader parses them, and any other waits for that one (Swift's lazy globals).
    static let builtInModules = ShippedModules.parsed(registry: BuiltinKinds.registry)

    /// Starts parsing the built-in modules on another thread: `check` and `fix` call it before
    /// ArgumentParser reads their command line (half of an empty check's instructions), so the
    /// two overlap on a machine with a second core (issue 63). A flow that never reads them
    /// (`--help`, a usage error) has spent that thread's time, nothing else; with
    /// RESWATCH_SHIPPED_RULES, which replaces them, nothing starts.
    package static func preload() {
        guard getenv("RESWATCH_SHIPPED_RULES") == nil else { return }
        DispatchQueue.global(qos: .userInitiated).async { _ = builtInModules }
    }

    package static func require(_ set: RuleSet, sources: RuleSources, output: FlowOutput) throws(FlowFailure) {
        guard set.rules.isEmpty else { return }
        for e in set.errors { output.say("\(e)") }
        let origin =
            sources.baseDirectory.map { "RESWATCH_SHIPPED_RULES=\($0) replaces the built-in rules" }
            ?? "the built-in rules did not load"
        throw FlowFailure("no rule is in force (\(origin)); nothing would be checked")
    }
}
