import ArgumentParser
import Foundation
import RuleEngine
import RuleKinds
import SystemCalls

/// The rule modules a command runs with: those built into the binary, then /etc, XDG and
/// `--rules` directories (RESWATCH_SHIPPED_RULES replaces the built-in ones, for developers).
enum RuleLocations {
    static func sources(extra: [String], allowUntrustedExec: Bool = false) -> RuleSources {
        var sources = ShippedModules.sources(environment: ProcessEnvironment.current(), extra: extra.map(FileSystem.absolutePath))
        sources.allowUntrustedExec = allowUntrustedExec
        return sources
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// Loads the rules; with no rule in force there is nothing to check, which must never pass as
    /// "no problems": exit 2 with the reason.
    static func loadRules(extra: [String], allowUntrustedExec: Bool = false) throws -> RuleSet {
        let sources = sources(extra: extra, allowUntrustedExec: allowUntrustedExec)
        let set = sources.load(registry: BuiltinKinds.registry)
        try requireRules(set, sources: sources)
        return set
    }

    static func requireRules(_ set: RuleSet, sources: RuleSources) throws {
        guard set.rules.isEmpty else { return }
        for e in set.errors { StandardError.say("\(e)") }
        let origin =
            sources.baseDirectory.map { "RESWATCH_SHIPPED_RULES=\($0) replaces the built-in rules" }
            ?? "the built-in rules did not load"
        StandardError.say("reswatch: no rule is in force (\(origin)); nothing would be checked")
        throw ExitCode(2)
    }
}
