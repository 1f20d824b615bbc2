import Findings
import ProjectModel
import RuleKit
import SystemCalls
import Yams

/// One instantiated rule: a kind with the data of one module entry.
public struct LoadedRule: Sendable {
    public let rule: any RuleKind
    public let kindName: String
    /// "file:line" of the module entry; identifies the rule across the engine.
    public let source: String
    public let module: String
    public var reported: [RuleInfo] { rule.reportedRules }
    /// Ids that identify the rule for replacement (shared ids such as `rules.exec-failed` excluded).
    public var ids: Set<String> { Set(reported.map(\.id)).subtracting(RuleSet.sharedIDs) }
    /// Ids the rule may report.
    public var allowedIDs: Set<String> { Set(reported.map(\.id)) }
    /// The module file the rule comes from.
    public var file: String {
        guard let colon = source.lastIndex(of: ":") else { return source }
        return String(source[..<colon])
    }
}
