import Findings
import Foundation
import RuleEngine
import SystemCalls

/// `gitlab`: GitLab Code Quality (a JSON array of issues with `description`, `check_name`,
/// `fingerprint`, `severity` and `location.path` / `location.lines.begin`), shown in merge requests.
package struct GitLabReporter: Reporter {
    package static let name = "gitlab"
    package static let summary = "GitLab Code Quality JSON, shown in merge requests"
    package init() {}

    /// Code Quality severities: info, minor, major, critical, blocker.
    static func severity(_ s: Severity) -> String {
        switch s {
        case .error: "critical"
        case .warning: "minor"
        case .info: "info"
        }
    }

    package func render(_ context: ReportContext) -> String {
        let issues: [[String: Any]] = context.fingerprinted.map { d, fingerprint in
            [
                "type": "issue", "check_name": d.rule,
                "description": FileName.escapingUndecodable(d.message + (d.code.map { " (\($0))" } ?? "")),
                "categories": ["Bug Risk"], "fingerprint": fingerprint, "severity": Self.severity(d.severity),
                "location": ["path": FileName.escapingUndecodable(context.paths.location(d)), "lines": ["begin": d.line ?? 1]],
            ]
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: issues, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
