import Findings
import Reporting
import ReswatchProtocol
import SystemCalls

/// A reswatch finding as an LSP `Diagnostic` (LSP 3.17): the file it is shown on (the engine
/// already moved findings about folders and missing files onto the file that declares them, at
/// the entry's line), the severity, the rule id as `code` with a link to its docs section, and
/// the related paths.
public struct DiagnosticMapping: Sendable {
    public let rulesURL: String

    public init(rulesURL: String = RuleLinks.defaultBase) { self.rulesURL = rulesURL }

    /// The absolute path a finding is shown on.
    public static func file(of d: Diagnostic) -> String { d.path.isEmpty ? d.root : d.root + "/" + d.path }

    public static func lspSeverity(_ s: Severity) -> Int {
        switch s {
        case .error: 1
        case .warning: 2
        case .info: 3
        }
    }

    /// A whole line (0-based), or the file's start when the finding has none.
    public static func range(line: Int?) -> JSONValue {
        let l = max((line ?? 1) - 1, 0)
        return .object([
            "start": .object(["line": .integer(Int64(l)), "character": .integer(0)]),
            "end": .object(["line": .integer(Int64(line == nil ? 0 : l + 1)), "character": .integer(0)]),
        ])
    }

    public func lsp(_ d: Diagnostic) -> JSONValue {
        var message = FileName.escapingUndecodable(d.message)
        if let code = d.code { message += " (\(code))" }
        if let fix = d.fix { message += "\nFix: " + FileName.escapingUndecodable(fix) }
        var object: [String: JSONValue] = [
            "range": Self.range(line: d.line),
            "severity": .integer(Int64(Self.lspSeverity(d.severity))),
            "code": .string(d.rule),
            "codeDescription": .object(["href": .string(RuleLinks.url(for: d.rule, base: rulesURL))]),
            "source": .string("reswatch"),
            "message": .string(message),
        ]
        if !d.related.isEmpty {
            object["relatedInformation"] = .array(
                d.related.prefix(20).map { related in
                    let path = related.hasPrefix("/") ? related : d.root + "/" + related
                    return .object([
                        "location": .object(["uri": .string(DocumentURI.from(path: path)), "range": Self.range(line: nil)]),
                        "message": .string("related: \(FileName.escapingUndecodable(related))"),
                    ])
                })
        }
        return .object(object)
    }
}
