import Findings
import RuleEngine

/// `checkstyle`: Checkstyle XML (`<checkstyle><file name><error line severity message source/>`),
/// read by Jenkins' warnings plugin, reviewdog, Danger and others. `line="0"` is the whole file
/// (a finding about a file, not a line of it).
package struct CheckstyleReporter: Reporter {
    package static let name = "checkstyle"
    package static let summary = "Checkstyle XML, for Jenkins' warnings plugin, reviewdog and Danger"
    package init() {}

    package func render(_ context: ReportContext) -> String {
        var byFile: [(String, [Diagnostic])] = []
        for d in context.report.diagnostics {
            let path = context.paths.location(d)
            if let i = byFile.firstIndex(where: { $0.0 == path }) { byFile[i].1.append(d) } else { byFile.append((path, [d])) }
        }
        var out = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<checkstyle version=\"4.3\">"]
        for (path, findings) in byFile {
            out.append("  <file name=\"\(XML.escape(path))\">")
            for d in findings {
                out.append(
                    "    <error line=\"\(d.line ?? 0)\"\(d.line != nil ? d.column.map { " column=\"\($0)\"" } ?? "" : "") severity=\"\(d.severity.rawValue)\" message=\"\(XML.escape(d.message + (d.code.map { " (\($0))" } ?? "")))\" source=\"reswatch.\(XML.escape(d.rule))\"/>"
                )
            }
            out.append("  </file>")
        }
        out.append("</checkstyle>")
        return out.joined(separator: "\n")
    }
}
