import Findings

/// What a repair kind says of one finding.
package enum RepairOutcome {
    /// The changes that repair it.
    case repair(title: String, changes: [FileChange])
    /// An earlier repair of the plan already repairs it (two findings, one edit).
    case alreadyRepaired
    /// Left as it is, and why.
    case leave(String)
}

/// One kind of repair: the rules it repairs and how. Each kind is one file in `Repairs/`, and
/// only where the repair is unambiguous; otherwise it says why it leaves the finding.
package protocol RepairKind: Sendable {
    static var rules: Set<String> { get }
    /// What the repair is, for an editor that cannot plan it itself: set for a repair that needs
    /// the project's targets (the daemon has them; an editor's plan of one finding does not).
    static var needsProject: String? { get }
    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome
}

extension RepairKind {
    package static var needsProject: String? { nil }
}
