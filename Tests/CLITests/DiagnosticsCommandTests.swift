import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// `reswatch diagnostics` against the real daemon: findings it cannot vouch for are said on
/// standard error and exit 2 ("results are incomplete", as `check`), never a quiet count.
@Suite struct DiagnosticsCommandTests {
    static let broken = ["A.imageset/Contents.json": ExampleFile.text("{ nope")]

    @Test func aRuleModuleThatDidNotLoadMakesTheAnswerIncomplete() throws {
        let rules = try TempTree(["bad.yaml": .text("rules:\n  - kind: png-properties\n    full-decode: [oops\n")])
        let tree = try TempTree(Self.broken)
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--rules", rules.path])
        defer { _ = daemon.stop() }
        let result = try runCommand(Repo.binary, ["diagnostics", "--socket", daemon.socket])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.contains("catalog.contents-invalid"), "the findings of the rules in force are printed")
        #expect(result.stderr.contains("results are incomplete: a rule module did not load: \(rules.path)/bad.yaml:4:"), "\(result.stderr)")
    }

    @Test func aRootStillScanningIsSaidAndAReadyOneIsNot() throws {
        let big = try TempTree([:])
        try big.addImageSets(8_000)  // a scan long enough to be asked during, on a loaded host too
        let small = try TempTree(Self.broken)
        let daemon = try DaemonHarness(roots: [big.path, small.path], waitReady: false)
        defer { _ = daemon.stop() }
        var sawIncomplete = false
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let result = try runCommand(Repo.binary, ["diagnostics", "--socket", daemon.socket])
            if result.status == 2, result.stderr.contains("no reswatch daemon answers") {
                usleep(10_000)  // not listening yet
                continue
            }
            guard result.status == 2 else {
                // Ready: every root's findings, nothing said about them.
                #expect(result.status == 1 && result.stdout.contains("catalog.contents-invalid"), "\(result.stdout)\(result.stderr)")
                #expect(!result.stderr.contains("incomplete"), "\(result.stderr)")
                break
            }
            #expect(
                result.stderr.contains("results are incomplete: ") && result.stderr.contains("is still being scanned"), "\(result.stderr)")
            sawIncomplete = true
        }
        #expect(sawIncomplete, "an answer during the scan said it was incomplete")
    }
}
