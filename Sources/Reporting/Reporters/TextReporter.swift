import RuleEngine

/// `text`: grouped by project, one line per finding, colour on a terminal.
package struct TextReporter: Reporter {
    package static let name = "text"
    package static let summary = "for people: findings grouped by project, with the context each was judged in"
    package init() {}

    package func render(_ context: ReportContext) -> String {
        var text = TextReport(color: context.color, paths: context.paths).render(context.report, showFixes: context.showFixes)
        if context.suppressed > 0 {
            text += "\n\(context.suppressed) finding\(context.suppressed == 1 ? "" : "s") left out: listed in the baseline"
        }
        return text
    }
}
