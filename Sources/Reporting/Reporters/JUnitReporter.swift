import Findings
import RuleEngine

/// `junit`: JUnit XML (Jenkins, GitLab, CircleCI, Buildkite). One testsuite per project; one
/// testcase per rule and subject that has findings, failing with their messages (errors and
/// warnings; info findings pass and are printed as output). A project with no findings has one
/// passing testcase, so a checked project is never an empty suite.
package struct JUnitReporter: Reporter {
    package static let name = "junit"
    package static let summary = "JUnit XML, for Jenkins, GitLab, CircleCI and Buildkite test reports"
    package init() {}

    package func render(_ context: ReportContext) -> String {
        let paths = context.paths
        struct Case {
            var rule: String
            var path: String
            var findings: [Diagnostic] = []
        }
        var suites: [(name: String, cases: [Case])] = []
        var seen = Set<String>()
        for p in context.report.projects {
            let name = paths.relative(root: p.root, path: p.path)
            if seen.insert(name).inserted { suites.append((name, [])) }
        }
        for d in context.report.diagnostics {
            let suite = paths.relative(root: d.root, path: d.project)
            if seen.insert(suite).inserted { suites.append((suite, [])) }
            let i = suites.firstIndex { $0.name == suite }!
            let path = paths.location(d)
            if let c = suites[i].cases.firstIndex(where: { $0.rule == d.rule && $0.path == path }) {
                suites[i].cases[c].findings.append(d)
            } else {
                suites[i].cases.append(Case(rule: d.rule, path: path, findings: [d]))
            }
        }
        var out = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        let total = suites.reduce(0) { $0 + max(1, $1.cases.count) }
        let failing = suites.reduce(0) { $0 + $1.cases.count { $0.findings.contains { $0.severity != .info } } }
        out.append(
            "<testsuites name=\"reswatch\" tests=\"\(total)\" failures=\"\(failing)\" errors=\"\(context.report.ruleErrors.count)\">")
        for suite in suites {
            let failures = suite.cases.count { $0.findings.contains { $0.severity != .info } }
            let name = XML.escape(suite.name)
            out.append("  <testsuite name=\"\(name)\" tests=\"\(max(1, suite.cases.count))\" failures=\"\(failures)\" errors=\"0\">")
            if suite.cases.isEmpty {
                out.append("    <testcase classname=\"\(name)\" name=\"resources\"/>")
            }
            for c in suite.cases {
                let head =
                    "    <testcase classname=\"\(XML.escape(c.rule))\" name=\"\(XML.escape(c.rule)) \(XML.escape(c.path))\" file=\"\(XML.escape(c.path))\""
                let text = c.findings.map { d in
                    "\(c.path)\(d.line.map { ":\($0)" + (d.column.map { ":\($0)" } ?? "") } ?? ""): \(d.severity.rawValue): \(d.message)"
                        + (d.code.map { " (\($0))" } ?? "")
                        + (d.fix.map { "\nfix: \($0)" } ?? "")
                }.joined(separator: "\n")
                let worst = c.findings.map(\.severity).max()!
                if worst == .info {
                    out.append(head + ">")
                    out.append("      <system-out>\(XML.escape(text))</system-out>")
                } else {
                    out.append(head + ">")
                    let message = c.findings.first { $0.severity == worst }!.message
                    out.append("      <failure type=\"\(worst.rawValue)\" message=\"\(XML.escape(message))\">\(XML.escape(text))</failure>")
                }
                out.append("    </testcase>")
            }
            out.append("  </testsuite>")
        }
        if !context.report.ruleErrors.isEmpty {
            out.append(
                "  <testsuite name=\"rule modules\" tests=\"\(context.report.ruleErrors.count)\" failures=\"0\" errors=\"\(context.report.ruleErrors.count)\">"
            )
            for e in context.report.ruleErrors {
                out.append("    <testcase classname=\"rule modules\" name=\"\(XML.escape(e.file))\">")
                out.append("      <error type=\"rule module error\" message=\"\(XML.escape(e.message))\"/>")
                out.append("    </testcase>")
            }
            out.append("  </testsuite>")
        }
        out.append("</testsuites>")
        return out.joined(separator: "\n")
    }
}
