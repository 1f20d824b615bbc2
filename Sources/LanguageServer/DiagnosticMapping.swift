import Findings
import ReswatchProtocol
import SystemCalls

/// A reswatch finding as an LSP `Diagnostic` (LSP 3.17): the file it is shown on (the engine
/// already moved findings about folders and missing files onto the file that declares them, at
/// the entry's line), the severity, the rule id as `code` with a link to its docs section, and
/// the related paths.
package struct DiagnosticMapping: Sendable {
    package let rulesURL: String

    package init(rulesURL: String = RuleLinks.defaultBase) { self.rulesURL = rulesURL }

    /// The absolute path a finding is shown on.
    package static func file(of d: Diagnostic) -> String { d.path.isEmpty ? d.root : d.root + "/" + d.path }

    package static func lspSeverity(_ s: Severity) -> Int {
        switch s {
        case .error: 1
        case .warning: 2
        case .info: 3
        }
    }

    /// From the finding's column (LSP counts UTF-16 code units, 0-based, as reswatch's 1-based
    /// columns do) to the end of its line, or the file's start when the finding has none.
    package static func range(line: Int?, column: Int? = nil) -> JSONValue {
        let l = max((line ?? 1) - 1, 0)
        let c = line == nil ? 0 : max((column ?? 1) - 1, 0)
        return .object([
            "start": .object(["line": .integer(Int64(l)), "character": .integer(Int64(c))]),
            "end": .object(["line": .integer(Int64(line == nil ? 0 : l + 1)), "character": .integer(0)]),
        ])
    }

    package func lsp(_ d: Diagnostic) -> JSONValue {
        var message = FileName.escapingUndecodable(d.message)
        if let code = d.code { message += " (\(code))" }
        if let fix = d.fix { message += "\nFix: " + FileName.escapingUndecodable(fix) }
        var object: [String: JSONValue] = [
            "range": Self.range(line: d.line, column: d.column),
            "severity": .integer(Int64(Self.lspSeverity(d.severity))),
            "code": .string(d.rule),
            "codeDescription": .object(["href": .string(RuleLinks.url(for: d.rule, base: rulesURL))]),
            "source": .string("reswatch"),
            "message": .string(message),
        ]
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : d.root + "/" + path }
        // The entry that uses an image (with its line) first, then the paths the finding concerns.
        let places: [JSONValue] =
            d.relatedLocations.map { r in
                .object([
                    "location": .object([
                        "uri": .string(DocumentURI.from(path: absolute(r.path))), "range": Self.range(line: r.line, column: r.column),
                    ]),
                    "message": .string(FileName.escapingUndecodable(r.message)),
                ])
            }
            + d.related.map { related in
                .object([
                    "location": .object(["uri": .string(DocumentURI.from(path: absolute(related))), "range": Self.range(line: nil)]),
                    "message": .string("related: \(FileName.escapingUndecodable(related))"),
                ])
            }
        if !places.isEmpty { object["relatedInformation"] = .array(Array(places.prefix(20))) }
        return .object(object)
    }
}
