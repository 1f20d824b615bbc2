import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// One instantiated rule: a kind with the data of one module entry.
public struct LoadedRule: Sendable {
    public let rule: any RuleKind
    public let kindName: String
    /// "file:line" of the module entry; identifies the rule across the engine.
    public let source: String
    public let module: String
    public var reported: [RuleInfo] { rule.reportedRules }
    /// Ids that identify the rule for replacement (shared ids such as `rules.exec-failed` excluded).
    /// Kept, not recomputed: every rule added to a set is compared with every rule before it.
    public let ids: Set<String>
    /// Ids the rule may report.
    public var allowedIDs: Set<String> { Set(reported.map(\.id)) }
    /// The module file the rule comes from.
    public let file: String

    init(rule: any RuleKind, kindName: String, source: String, module: String) {
        self.rule = rule
        self.kindName = kindName
        self.source = source
        self.module = module
        ids = Set(rule.reportedRules.map(\.id)).subtracting(RuleSet.sharedIDs)
        file = source.lastIndex(of: ":").map { String(source[..<$0]) } ?? source
    }
}
