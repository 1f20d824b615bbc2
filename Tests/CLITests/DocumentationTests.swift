import Foundation
import TestSupport
import Testing

/// What the docs promise is what the binary does: the README's example output is a real run, and
/// Examples/README.md explains every finding of the example, no more and no less.
@Suite struct DocumentationTests {
    static func exampleRun() throws -> CommandResult {
        try runCommand(Repo.binary, ["check", "--no-color", Repo.root + "/Examples/SampleApp"])
    }

    @Test func readmeExampleOutputIsARealRun() throws {
        let readme = try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- check-output:"), "README has no check-output block")
        let open = try #require(readme.range(of: "```\n", range: marker.upperBound..<readme.endIndex))
        let close = try #require(readme.range(of: "\n```", range: open.upperBound..<readme.endIndex))
        let promised = String(readme[open.upperBound..<close.lowerBound])
        let run = try Self.exampleRun()
        #expect(run.status == 1)
        let actual = run.stdout.replacingOccurrences(of: Repo.root, with: "/…").trimmingCharacters(in: .newlines)
        #expect(actual == promised, "README.md's example output differs from `reswatch check Examples/SampleApp`:\n\(actual)")
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
        }
        let summary = try #require(root["summary"] as? [String: Int])
        #expect(explained.contains("That is \(summary["errors"]!) errors and \(summary["warnings"]!) warnings."))
    }
}
