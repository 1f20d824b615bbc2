import ArgumentParser
import Foundation
import ProjectModel
import RuleEngine
import RuleKinds
import SystemCalls

/// What `check --config FILE` and `--ignore RULE` lay over every checked project's own
/// `.reswatch.yaml`: read, and every rule id in it checked against the rules in force (a typo
/// must not quietly check everything).
enum CheckOverlay {
    static func make(config: String?, ignore: [String], rules: RuleSet) throws -> ProjectConfig? {
        guard config != nil || !ignore.isEmpty else { return nil }
        var overlay = ProjectConfig()
        if let config {
            let bytes: [UInt8]
            do { bytes = try FileSystem.readFile(FileSystem.absolutePath(config), limit: 1 << 20) } catch {
                throw CheckCommand.fail("cannot read --config \(config): \(error.reason)")
            }
            let (parsed, problems) = ProjectConfigReader.parse(String(decoding: bytes, as: UTF8.self))
            if !problems.isEmpty {
                let listed = problems.map { "\(config)\($0.line.map { ":\($0)" } ?? ""): \($0.message)" }.joined(separator: "\n")
                throw CheckCommand.fail("--config \(config) is not a valid configuration; nothing was checked:\n\(listed)")
            }
            overlay = parsed
        }
        let known = Set(rules.allRuleInfos.map(\.id) + EngineRules.all.map(\.id))
        for (id, origin) in ignore.map({ ($0, "--ignore") })
            + (overlay.disabled.union(overlay.severity.keys)).sorted().map({ ($0, "--config") })
        where !known.contains(id) {
            let close = known.filter { EditDistance.isClose(id, $0) }.sorted()
            throw CheckCommand.fail(
                "\(origin): unknown rule id '\(id)'"
                    + (close.isEmpty ? " (reswatch rules list shows them)" : "; did you mean \(close.joined(separator: " or "))?"))
        }
        overlay.disabled.formUnion(ignore)
        return overlay
    }
}

/// Completes a rule id from the shipped modules (and the engine's own ids).
enum RuleIDCompletion {
    static let kind = CompletionKind.custom { _, _, prefix in
        let ids = ShippedModules.ruleSet().allRuleInfos.map(\.id) + EngineRules.all.map(\.id)
        return Set(ids).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
