import RuleEngine

/// `json`: reswatch's own shape (rules.md, "Output shape of one diagnostic"): paths relative to
/// each finding's `root`, the projects' contexts, and the summary.
package struct JSONReporter: Reporter {
    package static let name = "json"
    package static let summary = "reswatch's own JSON: every finding with its root, project and context"
    package init() {}

    package func render(_ context: ReportContext) -> String { context.report.json(suppressed: context.suppressed) }
}
