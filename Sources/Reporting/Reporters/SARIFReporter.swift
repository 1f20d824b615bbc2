import Findings
import Foundation
import RuleEngine
import SystemCalls

/// `sarif`: SARIF 2.1.0 (GitHub code scanning and other SARIF viewers). One run; every rule that
/// can be reported is described in `tool.driver.rules`; results carry repository-relative
/// locations (`uriBaseId` SRCROOT), the line where known, related locations and fingerprints.
package struct SARIFReporter: Reporter {
    package static let name = "sarif"
    package static let summary = "SARIF 2.1.0, for GitHub code scanning and SARIF viewers"
    package init() {}

    static func level(_ s: Severity) -> String {
        switch s {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// A relative path as a URI reference: every byte outside RFC 3986's unreserved set and "/" is
    /// percent-encoded (a space, "#", "%", "?" in a file name).
    static func uri(_ path: String) -> String {
        var out = ""
        for byte in FileName.bytes(of: path) {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (c.isLetter || c.isNumber || "-._~/@".contains(c)) {
                out.append(c)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    func location(_ path: String, line: Int?, column: Int? = nil) -> [String: Any] {
        var physical: [String: Any] = ["artifactLocation": ["uri": Self.uri(path), "uriBaseId": "SRCROOT"]]
        if let line, line > 0 {
            var region: [String: Any] = ["startLine": line]
            if let column, column > 0 { region["startColumn"] = column }
            physical["region"] = region
        }
        return ["physicalLocation": physical]
    }

    package func render(_ context: ReportContext) -> String {
        let ids = context.rules.keys.sorted()
        let index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        // A rule whose code depends on the finding (icon.file-missing: ITMS-90023 for a required
        // slot) names the codes its findings of this run carry.
        var codes: [String: Set<String>] = [:]
        for d in context.report.diagnostics { if let code = d.code { codes[d.rule, default: []].insert(code) } }
        let rules: [[String: Any]] = ids.map { id in
            let info = context.rules[id]!
            var properties: [String: Any] = ["tags": [String(id.prefix { $0 != "." })]]
            if let code = info.code ?? codes[id].map({ $0.sorted().joined(separator: ", ") }) { properties["itms"] = code }
            return [
                "id": id, "shortDescription": ["text": info.summary], "fullDescription": ["text": info.rationale],
                "help": [
                    "text": info.fix,
                    "markdown": "**Fix:** \(info.fix)\n\n[\(id) in docs/rules.md](\(RuleLinks.url(for: id, base: context.rulesURL)))",
                ],
                "helpUri": RuleLinks.url(for: id, base: context.rulesURL),
                "defaultConfiguration": ["level": Self.level(info.severity)], "properties": properties,
            ]
        }
        let paths = context.paths
        let results: [[String: Any]] = context.fingerprinted.map { d, fingerprint in
            var result: [String: Any] = [
                "ruleId": d.rule, "level": Self.level(d.severity), "message": ["text": FileName.escapingUndecodable(d.message)],
                "locations": [location(paths.location(d), line: d.line, column: d.column)],
                "partialFingerprints": ["reswatch/v1": fingerprint],
            ]
            if let i = index[d.rule] { result["ruleIndex"] = i }
            // The places with a line (the Contents.json entry that uses an image) first, then the
            // paths the finding concerns (a missing file, the set it is about).
            var related: [[String: Any]] = d.relatedLocations.map { r in
                location(paths.relative(root: d.root, path: r.path), line: r.line, column: r.column).merging([
                    "message": ["text": FileName.escapingUndecodable(r.message)]
                ]) { a, _ in a }
            }
            related += paths.related(d).map { location($0, line: nil) }
            if !related.isEmpty {
                result["relatedLocations"] = related.enumerated().map { i, place in place.merging(["id": i + 1]) { a, _ in a } }
            }
            var properties: [String: Any] = ["project": paths.relative(root: d.root, path: d.project)]
            if let code = d.code { properties["itms"] = code }
            if let fix = d.fix { properties["fix"] = FileName.escapingUndecodable(fix) }
            result["properties"] = properties
            return result
        }
        // Rule modules that failed to load: the run did not check everything, and says so.
        let notifications: [[String: Any]] = context.report.ruleErrors.map { e in
            var n: [String: Any] = ["level": "error", "message": ["text": FileName.escapingUndecodable("rule module error: \(e.message)")]]
            n["locations"] = [location(paths.relative(root: "/", path: String(e.file.drop { $0 == "/" })), line: e.line)]
            return n
        }
        let baseURI = "file://" + Self.uri(paths.base == "/" ? "/" : paths.base + "/")
        let run: [String: Any] = [
            "tool": [
                "driver": [
                    "name": "reswatch", "version": context.toolVersion, "semanticVersion": context.toolVersion,
                    "informationUri": context.rulesURL, "rules": rules,
                ]
            ],
            "originalUriBaseIds": ["SRCROOT": ["uri": baseURI]],
            "invocations": [
                [
                    "executionSuccessful": context.report.ruleErrors.isEmpty && context.report.unappliedConfigurations == 0,
                    "toolExecutionNotifications": notifications,
                    "properties": ["suppressedByBaseline": context.suppressed, "filesChecked": context.report.summary.files],
                ]
            ],
            "columnKind": "utf16CodeUnits",
            "results": results,
        ]
        let log: [String: Any] = ["$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]]
        let data =
            (try? JSONSerialization.data(withJSONObject: log, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
