import Findings
import RuleEngine
import RuleKit
import SystemCalls

/// One output format of `check`. Each format is one file in Reporters/ and one entry in
/// `Reporters.all` (docs/ci.md, "Adding a format").
public protocol Reporter: Sendable {
    /// The `--format` value.
    static var name: String { get }
    /// One line for `--help` and docs/ci.md.
    static var summary: String { get }
    init()
    func render(_ context: ReportContext) -> String
}

public enum Reporters {
    public static let all: [any Reporter.Type] = [
        TextReporter.self, JSONReporter.self, SARIFReporter.self, GitHubReporter.self, GitLabReporter.self, JUnitReporter.self,
        CheckstyleReporter.self, HTMLReporter.self, MarkdownReporter.self,
    ]

    public static var names: [String] { all.map { $0.name } }

    public static func named(_ name: String) -> (any Reporter)? { all.first { $0.name == name }.map { $0.init() } }
}

/// Escaping shared by the XML formats.
enum XML {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in FileName.escapingUndecodable(s).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            // XML 1.0 cannot carry other control characters at all, not even escaped.
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
