import Foundation
import TestSupport
import Testing

/// What the docs promise is what the binary does: the README's example output is a real run, and
/// Examples/README.md explains every finding of the example, no more and no less.
@Suite struct DocumentationTests {
    /// Every Markdown file a user reads.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        return [Repo.root + "/README.md", Repo.root + "/Examples/README.md"] + docs.map { Repo.root + "/docs/" + $0 }
    }

    static func checkQuotedOutputs(_ files: [String]) throws -> CommandResult {
        try runCommand("/usr/bin/env", ["python3", Repo.root + "/Tests/Tools/doc_outputs.py", "--check", "--binary", Repo.binary] + files)
    }

    /// Every output the docs quote (README, Examples/README.md, docs/) is re-run, daemon sessions
    /// included, and compared: a quoted output that drifts from what the binary prints fails here.
    @Test func quotedOutputsAreRealRuns() throws {
        let result = try Self.checkQuotedOutputs(try Self.documents())
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\nrun `make docs` to rewrite them from real runs")
        let counted = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let checked = Int(counted.split(separator: " ").first ?? "") ?? 0
        #expect(checked >= 5 && counted.hasSuffix("0 drifted"), "\(counted)")
    }

    /// The check can fail: a quoted output that is not what the run prints is reported with a diff.
    @Test func aDriftedQuoteIsCaught() throws {
        let doc = try TempTree([
            "doc.md": .text(
                "Text.\n\n<!-- output: reswatch rules explain icon.marketing-alpha -->\n```\nicon.marketing-alpha — warning\n```\n")
        ])
        let result = try Self.checkQuotedOutputs([doc.path + "/doc.md"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("doc.md:3: the quoted output differs from a real run"))
        #expect(
            result.stdout.contains("-icon.marketing-alpha — warning")
                && result.stdout.contains("+icon.marketing-alpha — error · ITMS-90717"))
        #expect(result.stdout.hasSuffix("1 quoted outputs, 1 drifted\n"))
    }

    /// The README's layout table names every module and every rule-kind folder that exists.
    @Test func readmeLayoutNamesEveryModule() throws {
        let readme = try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `Sources/") }.joined(separator: "\n")
        for module in try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/Sources") {
            #expect(rows.contains("`Sources/\(module)`") || rows.contains("`\(module)`"), "README's layout table misses Sources/\(module)")
        }
        let kindsRow = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `Sources/RuleKinds`") })
        var isDirectory: ObjCBool = false
        for folder in try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/Sources/RuleKinds")
        where FileManager.default.fileExists(atPath: Repo.root + "/Sources/RuleKinds/" + folder, isDirectory: &isDirectory)
            && isDirectory.boolValue
        {
            #expect(kindsRow.contains("`\(folder)/`"), "README's RuleKinds row misses \(folder)/")
        }
    }

    @Test func examplesReadmeExplainsEveryFinding() throws {
        let explained = try String(contentsOfFile: Repo.root + "/Examples/README.md", encoding: .utf8)
        let result = try runCommand(Repo.binary, ["check", "--format", "json", Repo.root + "/Examples/SampleApp"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
        let rows = explained.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for d in diagnostics {
            let rule = d["rule"] as? String ?? ""
            #expect(rows.contains { $0.contains("`\(rule)`") }, "Examples/README.md does not explain \(rule) at \(d["path"] ?? "")")
        }
        let found = Set(diagnostics.compactMap { $0["rule"] as? String })
        for row in rows {
            let rules =
                row.split(separator: "|").last.map {
                    $0.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                } ?? []
            for rule in rules { #expect(found.contains(rule), "Examples/README.md promises \(rule), which the check does not report") }
            // An ITMS code the row names is one a finding of its rule carries.
            let codes = Set(diagnostics.filter { rules.contains($0["rule"] as? String ?? "") }.compactMap { $0["code"] as? String })
            for match in row.matches(of: /ITMS-\d+/) {
                #expect(
                    codes.contains(String(match.output)),
                    "Examples/README.md says \(match.output) for \(rules), the findings carry \(codes)")
            }
        }
        let summary = try #require(root["summary"] as? [String: Int])
        let warnings = summary["warnings"]!
        #expect(explained.contains("That is \(summary["errors"]!) errors and \(warnings) warning\(warnings == 1 ? "" : "s")"))
    }
}
