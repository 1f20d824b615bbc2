import ProjectModel
import RuleEngine
import RuleKinds
import RuleKit
import SystemCalls

/// What `check --config FILE` and `--ignore RULE` lay over every checked project's own
/// `.reswatch.yaml`: read, and every rule id in it checked against the rules in force (a typo
/// must not quietly check everything). Ids no shipped or user rule has may belong to a checked
/// project's own `.reswatch/rules`: those are checked once the projects are read (`verify`).
package struct CheckOverlay: Sendable {
    package var config: ProjectConfig
    /// Ids the overlay names that no base rule has, with where they came from.
    package var pending: [(id: String, origin: String)]

    package static func make(config: String?, ignore: [String], rules: RuleSet) throws(FlowFailure) -> CheckOverlay? {
        guard config != nil || !ignore.isEmpty else { return nil }
        var overlay = ProjectConfig()
        if let config {
            let bytes: [UInt8]
            do { bytes = try FileSystem.readFile(FileSystem.absolutePath(config), limit: 1 << 20) } catch {
                throw FlowFailure("cannot read --config \(FileName.display(config)): \(error.reason)")
            }
            let (parsed, problems) = ProjectConfigReader.parse(String(decoding: bytes, as: UTF8.self))
            if !problems.isEmpty {
                throw FlowFailure(
                    "--config \(FileName.display(config)) is not a valid configuration; nothing was checked:",
                    details: problems.map { "\(FileName.display(config))\($0.line.map { ":\($0)" } ?? ""): \($0.message)" })
            }
            overlay = parsed
        }
        let known = Set(rules.allRuleInfos.map(\.id) + EngineRules.all.map(\.id))
        let named = ignore.map { ($0, "--ignore") } + overlay.disabled.union(overlay.severity.keys).sorted().map { ($0, "--config") }
        overlay.disabled.formUnion(ignore)
        return CheckOverlay(config: overlay, pending: named.filter { !known.contains($0.0) }.map { (id: $0.0, origin: $0.1) })
    }

    /// After the projects are read: every id named is a rule's (`known`: base and project rules),
    /// and not every rule is turned off. Either way nothing is reported: the run stops with exit 2.
    package func verify(known: Set<String>) throws(FlowFailure) {
        for (id, origin) in pending where !known.contains(id) {
            let close = known.filter { EditDistance.isClose(id, $0) }.sorted()
            throw FlowFailure(
                "\(origin): unknown rule id '\(Quoted.text(id))'"
                    + (close.isEmpty ? " (reswatch rules list shows them)" : "; did you mean \(close.joined(separator: " or "))?"))
        }
        let off = config.disabled.union(config.severity.filter { $0.value == .off }.keys)
        let checkable = known.subtracting(EngineRules.all.map(\.id))
        if !checkable.isEmpty, checkable.isSubset(of: off) {
            throw FlowFailure("--ignore and --config turn off every rule: nothing would be checked")
        }
    }
}
