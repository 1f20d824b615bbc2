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
