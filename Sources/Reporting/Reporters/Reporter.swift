import Findings
import RuleEngine
import RuleKit
import SystemCalls

/// Everything a reporter renders: the report, the paths it shows, and the rules' own texts.
public struct ReportContext: Sendable {
    public let report: CheckReport
    public let paths: ReportPaths
    /// Every rule that can be reported (shipped, extra modules, engine), by id.
    public let rules: [String: RuleInfo]
    public let toolVersion: String
    /// Findings left out because the baseline lists them.
    public let suppressed: Int
    public let color: Bool
    public let showFixes: Bool
    /// Base of the rules' documentation links (`RuleLinks`).
    public let rulesURL: String
    /// Where the Markdown report writes its icon sets' contact sheets (`--assets DIR`), or nil.
    public let assetsDirectory: String?

    public init(
        report: CheckReport, paths: ReportPaths, rules: [RuleInfo], toolVersion: String, suppressed: Int = 0, color: Bool = false,
        showFixes: Bool = false, rulesURL: String = RuleLinks.defaultBase, assetsDirectory: String? = nil
    ) {
        self.rulesURL = rulesURL
        self.assetsDirectory = assetsDirectory
        self.report = report
        self.paths = paths
        self.rules = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        self.toolVersion = toolVersion
        self.suppressed = suppressed
        self.color = color
        self.showFixes = showFixes
    }

    /// The findings with their fingerprints, in report order.
    public var fingerprinted: [(Diagnostic, String)] {
        Array(zip(report.diagnostics, Fingerprint.all(report.diagnostics, paths: paths)))
    }
}

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
