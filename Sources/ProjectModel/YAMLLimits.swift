import Foundation
import Yams

/// Bounded work for YAML from a checked tree (`.reswatch.yaml`, a project's rule modules) and
/// for configuration files: aliases used as mapping keys are refused before Yams composes the
/// text (its duplicate-key check grows by the product of the aliases: 360 bytes took 13.6 s), and
/// a composed document may expand (through value aliases) to at most `nodeBudget` nodes.
public enum YAMLLimits {
    public static let nodeBudget = 1_000_000

    /// Composes `text`, or says why it will not.
    public static func compose(_ text: String) -> Result<Node?, YAMLProblem> {
        if let line = aliasKeyLine(text) {
            return .failure(YAMLProblem(line: line, message: "an alias used as a mapping key (? *name / *name:) is not accepted"))
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { return .failure(.from(error)) }
        if let root {
            var budget = nodeBudget
            guard within(root, &budget) else {
                return .failure(YAMLProblem(line: nil, message: "expands (through aliases) to more than \(nodeBudget) values: not read"))
            }
        }
        return .success(root)
    }

    /// The 1-based line of the first alias used as a key, in block (`? *a`, `*a:`) or flow (`{*a: 1}`) style.
    static func aliasKeyLine(_ text: String) -> Int? {
        guard text.contains("*") else { return nil }
        let patterns = [#"^\s*(-\s+)*\?\s*\*"#, #"^\s*(-\s+)*\*[^\s:,\]\}]+\s*:"#, #"[\{,]\s*\?*\s*\*[^\s:,\]\}]+\s*:"#]
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("*") {
            let s = String(line)
            if patterns.contains(where: { s.range(of: $0, options: .regularExpression) != nil }) { return i + 1 }
        }
        return nil
    }

    static func within(_ node: Node, _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar, .alias: return true
        case .sequence(let s): return s.allSatisfy { within($0, &budget) }
        case .mapping(let m):
            for (k, v) in m { guard within(k, &budget), within(v, &budget) else { return false } }
            return true
        }
    }
}
