import Reporting

/// Which findings fail the run (exit 1).
package enum FailOn: String, CaseIterable, Sendable {
    case error, warning, info, never

    package func fails(_ summary: CheckReport.Summary) -> Bool {
        switch self {
        case .error: summary.errors > 0
        case .warning: summary.errors + summary.warnings > 0
        case .info: summary.errors + summary.warnings + summary.infos > 0
        case .never: false
        }
    }
}
