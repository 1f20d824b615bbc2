import Findings
import Foundation
import Reporting
import RuleEngine
import RuleKinds
import TestSupport
import Testing

@Suite struct ReportTests {
    let diagnostic = Diagnostic(
        rule: "icon.size-mismatch", severity: .error, code: "ITMS-90022", root: "/r", project: "App",
        path: "App/A.appiconset/i.png", line: 12, message: "i.png is 121x120 but should be 120x120", fix: "Export at 120x120.")

    @Test func textLineHasTheDocumentedShape() {
        let plain = TextReport(color: false).line(diagnostic)
        #expect(plain == "App/A.appiconset/i.png:12: error: i.png is 121x120 but should be 120x120 [icon.size-mismatch] (ITMS-90022)")
        let coloured = TextReport(color: true).line(diagnostic)
        #expect(coloured.contains("\u{1B}[1;31merror\u{1B}[0m"))
    }

    @Test func diagnosticJSONKeepsNullsInTheFixedShape() throws {
        var d = diagnostic
        d.code = nil
        d.line = nil
        d.fix = nil
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(d)) as! [String: Any]
        #expect(
            object.keys.sorted() == [
                "code", "column", "fix", "line", "message", "path", "project", "related", "relatedLocations", "root", "rule", "severity",
            ])
        #expect(object["code"] is NSNull && object["line"] is NSNull && object["column"] is NSNull)
        #expect((object["relatedLocations"] as? [Any])?.isEmpty == true)
    }

    @Test func stableOrderIsByPathThenLineThenRule() {
        let a = Diagnostic(rule: "b", severity: .info, root: "/r", project: "", path: "a", line: 2, message: "")
        let b = Diagnostic(rule: "a", severity: .info, root: "/r", project: "", path: "a", line: 10, message: "")
        let c = Diagnostic(rule: "a", severity: .info, root: "/r", project: "", path: "b", message: "")
        #expect([c, b, a].sorted(by: Diagnostic.stableOrder) == [a, b, c])
    }
}

@Suite struct RuleDocsTests {
    /// docs/rules.md is generated; regenerate with `.build/debug/reswatch rules docs > docs/rules.md`.
    @Test func docsRulesMdIsUpToDate() throws {
        let generated = RuleDocs.markdown(rules: Repo.shippedRuleSet(), kinds: BuiltinKinds.all) + "\n"
        let committed = try String(contentsOfFile: Repo.root + "/docs/rules.md", encoding: .utf8)
        #expect(committed == generated, "docs/rules.md is out of date: run `.build/debug/reswatch rules docs > docs/rules.md`")
    }
}
