import Flows
import Foundation
import TestSupport
import Testing

/// `check --config FILE` and `--ignore RULE` (repeatable): laid over every checked project's own
/// configuration for one run, without touching the tree; a typo stops the run (exit 2).
@Suite struct CheckOverlayTests {
    static var example: String { Repo.root + "/Examples/SampleApp" }

    func check(ignore: [String] = [], config: String? = nil) -> CommandResult {
        checkInProcess([Self.example]) {
            $0.ignore = ignore
            $0.config = config
        }
    }

    @Test func ignoreLeavesTheRuleOutAndOnlyIt() throws {
        let all = check()
        #expect(all.stdout.contains("[icon.size-mismatch]") && all.stdout.contains("[icon.marketing-alpha]"))
        let some = check(ignore: ["icon.size-mismatch", "icon.marketing-alpha"])
        #expect(!some.stdout.contains("[icon.size-mismatch]") && !some.stdout.contains("[icon.marketing-alpha]"))
        #expect(some.stdout.contains("[image.not-png]"), "the other rules still run")
    }

    @Test func aMistypedRuleIDStopsTheRun() throws {
        let result = check(ignore: ["icon.legacy-slt"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--ignore: unknown rule id 'icon.legacy-slt'; did you mean icon.legacy-slot?"))
        #expect(result.stdout.isEmpty, "nothing was checked")
    }

    @Test func aConfigFileIsLaidOverTheProjectsOwn() throws {
        let dir = try TempTree(["ci.yaml": .text("devices: [iphone]\nrules:\n  disable: [plist.device-capabilities]\n")])
        let result = check(config: dir.path + "/ci.yaml")
        #expect(result.stdout.contains("Examples/SampleApp  iphone (--config)"), "\(result.stdout)")
        #expect(!result.stdout.contains("[plist.device-capabilities]"))
        #expect(check().stdout.contains("[plist.device-capabilities]"), "the tree itself is unchanged")
    }

    @Test func aBrokenConfigFileStopsTheRunWithItsLines() throws {
        let dir = try TempTree([
            "bad.yaml": .text("devices: [pc]\nrules:\n  disable: [icon.nope]\n"),
            "unknown.yaml": .text("rules:\n  disable: [icon.nope]\n"),
        ])
        let bad = check(config: dir.path + "/bad.yaml")
        #expect(bad.status == 2 && bad.stderr.contains("bad.yaml:1: devices: unknown device 'pc'"), "\(bad.stderr)")
        let unknown = check(config: dir.path + "/unknown.yaml")
        #expect(unknown.status == 2 && unknown.stderr.contains("--config: unknown rule id 'icon.nope'"), "\(unknown.stderr)")
        let missing = check(config: dir.path + "/none.yaml")
        #expect(missing.status == 2 && missing.stderr.contains("cannot read --config"))
    }

    /// A checked project's own rule (its `.reswatch/rules`) may be ignored on the command line: the
    /// id is checked once the projects are read, and a typo of it still stops the run.
    @Test func aProjectsOwnRuleCanBeIgnored() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/.reswatch/rules/team.yaml": .text(
                "rules:\n  - kind: exec\n    argv: [/bin/echo, '{\"diagnostics\":[{\"rule\":\"team.a\",\"message\":\"hi\"}]}']\n    subjects: [project]\n    rules: [{id: team.a}]\n"
            ),
        ])
        func run(_ ignore: [String]) -> CommandResult {
            checkInProcess([tree.path + "/App"]) {
                $0.allowProjectExec = true
                $0.ignore = ignore
            }
        }
        #expect(run([]).stdout.contains("[team.a]"), "the project's rule runs")
        let ignored = run(["team.a"])
        #expect(ignored.status == 0 && !ignored.stdout.contains("[team.a]"), "\(ignored.stderr)")
        let typo = run(["team.b"])
        #expect(typo.status == 2 && typo.stderr.contains("--ignore: unknown rule id 'team.b'; did you mean team.a?"), "\(typo.stderr)")
        #expect(typo.stdout.isEmpty, "nothing is reported")
    }

    /// Turning every rule off is never a quiet "no problems": on the command line the run stops;
    /// in a project's .reswatch.yaml it is a config.invalid warning.
    @Test func turningEveryRuleOffIsSaid() throws {
        let ids = try runCommand(Repo.binary, ["rules", "list"]).stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first }
        #expect(ids.count > 50 && ids.contains("iconcomposer.unsupported-platform"), "rules list never cuts an id")
        let all = check(ignore: ids.map(String.init))
        #expect(all.status == 2 && all.stderr.contains("turn off every rule: nothing would be checked"), "\(all.stderr)")
        #expect(!all.stdout.contains("no problems"))

        let project = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\nrules:\n  disable: [\(ids.joined(separator: ", "))]\n"),
            "App/Info.plist": .text("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n"),
        ])
        let quiet = checkInProcess([project.path + "/App"])
        #expect(quiet.stdout.contains("every rule is turned off"), "\(quiet.stdout)")
        #expect(quiet.stdout.contains(".reswatch.yaml:3") && quiet.stdout.contains("[config.invalid]"), "\(quiet.stdout)")
        #expect(!quiet.stdout.contains("no problems"))
    }

    /// A megabyte-long rule id (in a hostile .reswatch.yaml or on the command line) is said with a
    /// clipped quote, not copied whole into the finding.
    @Test func aHugeRuleIDIsQuotedClipped() throws {
        let huge = String(repeating: "x", count: 500_000)
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("rules:\n  disable: [\(huge)]\n"),
            "App/Info.plist": .text("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n"),
        ])
        let result = checkDiagnostics([tree.path + "/App"]).result
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("no rule has the id '\(String(repeating: "x", count: 80))… (500000 bytes)'"))
        #expect(result.stdout.utf8.count < 100_000, "the id is not copied whole")
        let typed = check(ignore: [String(repeating: "y", count: 100_000)])
        #expect(typed.status == 2 && typed.stderr.contains("… (100000 bytes)'") && typed.stderr.utf8.count < 1000)
    }
}
