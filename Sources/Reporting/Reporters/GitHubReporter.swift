import Findings
import RuleEngine
import SystemCalls

/// `github`: GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`): each
/// finding becomes an annotation on the file and line in the pull request.
package struct GitHubReporter: Reporter {
    package static let name = "github"
    package static let summary = "GitHub Actions workflow commands: annotations on the pull request"
    package init() {}

    static func command(_ s: Severity) -> String {
        switch s {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    /// Workflow-command escaping: the message may not contain a raw newline (it would end the
    /// command, and a forged next line could be a command of its own); other control characters
    /// (an ANSI escape in a file name) are shown as \xHH, as the text format does.
    static func escapeData(_ s: String) -> String {
        var out = ""
        for scalar in FileName.escapingUndecodable(s).unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\x" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    package func render(_ context: ReportContext) -> String {
        var lines: [String] = []
        for e in context.report.ruleErrors {
            lines.append("::error file=\(Self.escapeProperty(e.file)),title=rule module error::\(Self.escapeData(e.message))")
        }
        for d in context.report.diagnostics {
            var properties = ["file=\(Self.escapeProperty(context.paths.location(d)))"]
            if let line = d.line { properties.append("line=\(line)") }
            if d.line != nil, let column = d.column { properties.append("col=\(column)") }
            properties.append("title=\(Self.escapeProperty(d.rule + (d.code.map { " (\($0))" } ?? "")))")
            lines.append("::\(Self.command(d.severity)) \(properties.joined(separator: ","))::\(Self.escapeData(d.message))")
        }
        return lines.joined(separator: "\n")
    }
}
