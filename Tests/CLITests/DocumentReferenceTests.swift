import Foundation
import TestSupport
import Testing

/// What the code and docs cite is in the repository or public: Apple's documents by the short
/// names of docs/sources.md, never a file beside the clone (`../shared`'s research notes and
/// seed copies, a design brief) that a reader of the repository cannot open. The corpus of real
/// apps is test data, not a citation: tests and their docs may name it.
@Suite struct DocumentReferenceTests {
    static var forbidden: [(pattern: Regex<Substring>, why: String)] {
        [
            (/\.\.\/shared\/(?:research|seeds|spec|design)/, "a document beside the clone"),
            (/(?i)\bseeds? \d{3}\b/, "a seed number (name the document: docs/sources.md)"),
            (/\bdesign\.md\b/, "the design brief (say the reason itself)"),
        ]
    }

    /// Every text file a user or contributor reads: Sources, rule modules, docs, README, examples.
    static func files() -> [String] {
        var out = [Repo.root + "/README.md"]
        for folder in ["Sources", "rules", "docs", "Examples", "config", "systemd"] {
            let base = Repo.root + "/" + folder
            let walker = FileManager.default.enumerator(atPath: base)
            while let file = walker?.nextObject() as? String {
                guard [".swift", ".c", ".h", ".md", ".yaml", ".yml", ".tsv", ".service", ".socket"].contains(where: file.hasSuffix) else {
                    continue
                }
                out.append(base + "/" + file)
            }
        }
        return out
    }

    @Test func nothingCitesADocumentOutsideTheRepository() throws {
        for file in Self.files() {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for (pattern, why) in Self.forbidden where line.contains(pattern) {
                    Issue.record("\(file.dropFirst(Repo.root.count + 1)):\(index + 1) cites \(why): \(line.prefix(120))")
                }
            }
        }
    }

    @Test func theSourcesPageIsLinkedAndNamesEachDocumentTheRulesCite() throws {
        let sources = try String(contentsOfFile: Repo.root + "/docs/sources.md", encoding: .utf8)
        for name in [
            "QA1686", "TN2244", "TN3181", "Info.plist Key Reference", "Icon Composer", "Privacy manifests", "ITMS wording", "actool",
        ] {
            #expect(sources.contains("| \(name) |"), "docs/sources.md has no row for \(name)")
        }
        let contract = try String(contentsOfFile: Repo.contract, encoding: .utf8)
        #expect(contract.contains("docs/sources.md") || contract.contains("(../sources.md)"))
    }

    /// The patterns catch what they are for.
    @Test func thePatternsCatchACitationOfTheSharedFolder() {
        let lines = ["// Sources: ../shared/research/modern-apple-resources.md §2", "QA1686 (seed 000)", "(design.md)"]
        for line in lines { #expect(Self.forbidden.contains { line.contains($0.pattern) }, "\(line)") }
        #expect(!Self.forbidden.contains { "the 14 real apps of `../shared/corpus`".contains($0.pattern) })
    }
}
