import RuleEngine

/// `json`: reswatch's own shape (rules.md, "Output shape of one diagnostic"): paths relative to
/// each finding's `root`, the projects' contexts, and the summary.
public struct JSONReporter: Reporter {
    public static let name = "json"
    public static let summary = "reswatch's own JSON: every finding with its root, project and context"
    public init() {}

    public func render(_ context: ReportContext) -> String { context.report.json(suppressed: context.suppressed) }
}
