import Foundation
import TestSupport
import Testing

/// `check --format markdown`, read by a CommonMark parser (markdown-it-py, GitHub's flavour:
/// tables and strikethrough on) the way a job summary or a merge-request comment is rendered.
@Suite(.enabled(if: Repo.pythonAvailable, "needs the test virtual environment (make test creates .build/test-venv)"))
struct MarkdownReportTests {
    /// The Markdown rendered to HTML by markdown-it-py.
    static func render(_ markdown: String, in tree: TempTree) throws -> String {
        let file = tree.path + "/report.md"
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: file))
        let script = """
            import sys
            from markdown_it import MarkdownIt
            md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
            sys.stdout.write(md.render(open(sys.argv[1], encoding="utf-8").read()))
            """
        let result = try runCommand(Repo.python, ["-c", script, file])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func theExampleRendersAsCountsProjectsAndRules() throws {
        let tree = try TempTree()
        let run = try runCommand(Repo.binary, ["check", "--format", "markdown", Repo.root + "/Examples/SampleApp"])
        #expect(run.status == 1)
        let html = try Self.render(run.stdout, in: tree)
        #expect(html.contains("<h2>reswatch check: 6 error(s), 1 warning(s), 3 info in 25 files</h2>"), "\(html.prefix(400))")
        // One heading per rule, linked to its documentation; one item per finding.
        #expect(
            html.contains(
                "<h4><a href=\"https://github.com/reswatch/reswatch/blob/main/docs/rules.md#iconsize-mismatch\">icon.size-mismatch</a> (1 error)</h4>"
            ))
        #expect(html.components(separatedBy: "<li>").count - 1 == 10 + 1, "10 findings and the project's one context line")
        #expect(html.contains("Icon-iphone-60@2x.png is 121x120 but should be 120x120"))
    }

    /// `--assets DIR`: each icon set as a PNG contact sheet beside the summary, shown in it.
    @Test func contactSheetsAreWrittenAndShown() throws {
        let tree = try TempTree()
        let run = try runCommand(
            Repo.binary,
            [
                "check", "--format", "markdown", "--output", tree.path + "/summary.md", "--assets", tree.path + "/sheets",
                Repo.root + "/Examples/SampleApp",
            ])
        #expect(run.status == 1, "\(run.stderr)")
        let sheet = tree.path + "/sheets/1-AppIcon.appiconset.png"
        let check = try runCommand("/usr/bin/pngcheck", [sheet])
        #expect(check.status == 0, "a valid PNG: \(check.stdout)")
        let html = try Self.render(try String(contentsOfFile: tree.path + "/summary.md", encoding: .utf8), in: tree)
        #expect(html.contains("<img src=\"\(tree.path)/sheets/1-AppIcon.appiconset.png\""), "\(html.prefix(600))")
        #expect(html.contains("without a picture: ipad 83.5x83.5@2x"), "the missing slot is named")
        let misuse = try runCommand(Repo.binary, ["check", "--assets", tree.path + "/x", Repo.root + "/Examples/SampleApp"])
        #expect(misuse.status == 2 && misuse.stderr.contains("--format markdown"))
    }

    @Test func namesFromTheTreeNeverBecomeMarkup() throws {
        let tree = try TempTree()
        let set = try tree.addMarketingIconApp()
        let png = try Data(contentsOf: URL(fileURLWithPath: set + "/m.png"))
        for name in ["<img src=x onerror=alert(1)>.png", "[link](javascript:alert(1)).png", "**bold**`code`|pipe.png"] {
            try png.write(to: URL(fileURLWithPath: set + "/" + name))
        }
        let run = try runCommand(Repo.binary, ["check", "--format", "markdown", tree.path])
        let html = try Self.render(run.stdout, in: tree)
        let links = html.matches(of: /href="([^"]*)"/).map { String($0.1) }
        #expect(links.allSatisfy { $0.hasPrefix("https://github.com/reswatch/reswatch/blob/main/docs/rules.md#") }, "\(links)")
        #expect(!html.contains("<img") && !html.contains("<strong>bold") && !html.contains("<code>code"), "\(html)")
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;.png"), "the name is shown as text")
    }
}
