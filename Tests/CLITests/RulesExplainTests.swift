import Foundation
import TestSupport
import Testing

/// `reswatch rules explain ID` says what a rule checks, why, what App Store Connect says, how to
/// turn it off, and shows the kind's own examples; typos get the nearest id or command (issue 26).
@Suite struct RulesExplainTests {
    @Test func explainsARuleWithItsSourceWordingSettingsAndExamples() throws {
        let r = try runCommand(Repo.binary, ["rules", "explain", "icon.marketing-alpha"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("icon.marketing-alpha — error · ITMS-90717\n"))
        #expect(r.stdout.contains("App Store Connect says (ITMS-90717): \"Invalid large app icon."))
        #expect(r.stdout.contains("Reported by: kind appicon-set, switched on at <built-in>/rules/icon.yaml:"))
        #expect(r.stdout.contains("  rules:\n    disable: [icon.marketing-alpha]\n    severity: {icon.marketing-alpha: warning}"))
        #expect(r.stdout.contains("\nReported for: ") && r.stdout.contains("\nNot reported for: "))
        #expect(r.stdout.contains("(PNG 1024x1024, rgba)"), "the example's App Store icon, described")
        #expect(r.stdout.hasSuffix("docs/rules.md#iconmarketing-alpha\n"))
    }

    /// Every id `rules list` shows can be explained, and each kind's id shows a triggering example.
    @Test func everyListedRuleCanBeExplained() throws {
        let list = try runCommand(Repo.binary, ["rules", "list", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        let ids = Set(try #require(object["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String })
        #expect(ids.count > 60)
        for id in ids.sorted() {
            let r = try runCommand(Repo.binary, ["rules", "explain", id])
            #expect(r.status == 0 && r.stdout.hasPrefix(id + " — "), "\(id): \(r.stderr)")
            #expect(r.stdout.contains("\nReported for: "), "\(id) has no triggering example to show")
        }
        let engine = try runCommand(Repo.binary, ["rules", "explain", "config.invalid"])
        #expect(engine.status == 0 && engine.stdout.contains(".reswatch.yaml cannot disable or re-grade it"))
    }

    @Test func anUnknownIdOrCommandExitsTwoAndNamesTheNearest() throws {
        let typo = try runCommand(Repo.binary, ["rules", "explain", "icon.marketing-alfa"])
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'icon.marketing-alpha'?"), "\(typo.stderr)")
        let none = try runCommand(Repo.binary, ["rules", "explain", "zzzz"])
        #expect(none.status == 2 && none.stderr.contains("no rule has the id 'zzzz'") && none.stdout.isEmpty)
        let command = try runCommand(Repo.binary, ["chek", "."])
        #expect(command.status == 2 && command.stderr.contains("Did you mean 'reswatch check'?"), "\(command.stderr)")
        let sub = try runCommand(Repo.binary, ["rules", "explian", "icon.marketing-alpha"])
        #expect(sub.status == 2 && sub.stderr.contains("Did you mean 'reswatch rules explain'?"), "\(sub.stderr)")
        let option = try runCommand(Repo.binary, ["check", "--fial-on", "warning", "."])
        #expect(option.status == 2 && option.stderr.contains("Did you mean '--fail-on'?"), "\(option.stderr)")
    }
}
