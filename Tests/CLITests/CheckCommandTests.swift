import Foundation
import ImageFacts
import RuleEngine
import TestSupport
import Testing

/// `reswatch check` as users run it: the real binary, real files, real exit codes.
@Suite(.serialized) struct CheckCommandTests {
    func check(_ args: [String]) throws -> CommandResult { try runCommand(Repo.binary, ["check"] + args) }

    func json(_ result: CommandResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "stdout is not a JSON object: \(result.stdout.prefix(300))")
    }

    /// Three files whose names differ only in case, and an entry naming a fourth spelling: every
    /// run of the binary names the first in byte order. (Each process seeds its hashing anew: a
    /// Set's order picked one of the three at random, and six runs agreed one time in 243.)
    @Test func aNameDifferingInCaseResolvesAlikeInEveryProcess() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset/"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "Contents.json": .text(
                "{\"images\":[{\"idiom\":\"iphone\",\"size\":\"60x60\",\"scale\":\"2x\",\"filename\":\"icon-120.png\"}]}"),
            set + "Icon-120.png": .png(PNGSpec(width: 120, height: 120)),
            set + "ICON-120.png": .png(PNGSpec(width: 120, height: 120)),
            set + "icon-120.PNG": .png(PNGSpec(width: 120, height: 120)),
        ])
        for run in 0..<6 {
            let out = try check(["--no-color", tree.path]).stdout
            #expect(out.contains("names icon-120.png for the iphone 60@2x slot; the file is ICON-120.png"), "run \(run): \(out)")
        }
    }

    /// Yams' default encoding reads YAMS_DEFAULT_ENCODING and, when it is set, prints a line to
    /// standard output for every document it parses: the built-in modules, a `.reswatch.yaml`, a
    /// module of the project's. The report on standard output must be the same with it set.
    @Test(arguments: ["UTF16", "utf8"]) func theYAMLParsersEnvironmentVariableLeavesTheReportAlone(_ value: String) throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"i.png\"}]}"),
            "App/Assets.xcassets/AppIcon.appiconset/i.png": .png(PNGSpec(width: 1024, height: 1000)),
        ])
        var environment = ProcessInfo.processInfo.environment
        environment["YAMS_DEFAULT_ENCODING"] = nil
        let plain = try runCommand(Repo.binary, ["check", "--format", "json", tree.path], environment: environment)
        environment["YAMS_DEFAULT_ENCODING"] = value
        let set = try runCommand(Repo.binary, ["check", "--format", "json", tree.path], environment: environment)
        #expect(set.status == 1 && plain.status == 1, "the size mismatch is an error: \(set.stderr)")
        #expect(set.stdout == plain.stdout)
        let report = try JSONSerialization.jsonObject(with: Data(set.stdout.utf8)) as? [String: Any]
        let diagnostics = report?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.contains { $0["rule"] as? String == "icon.size-mismatch" }, "\(set.stdout)")
    }

    @Test func cleanTreeExitsZeroAndErrorsExitOne() throws {
        let good = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"i.png\"}]}"),
            "App/Assets.xcassets/AppIcon.appiconset/i.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        let ok = try check(["--no-color", good.path])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.stdout.contains("0 errors, 0 warnings, 1 info"), "only: App has no Info.plist")
        #expect(
            ok.stdout.contains("App/.reswatch.yaml:1:1: info: no app Info.plist found in the project"),
            "shown on the file that makes App a project")
        try good.write(["App/Assets.xcassets/AppIcon.appiconset/i.png": .png(PNGSpec(width: 1024, height: 1000))])
        let bad = try check(["--no-color", good.path])
        #expect(bad.status == 1)
        #expect(
            bad.stdout.contains(
                "App/Assets.xcassets/AppIcon.appiconset/i.png: error: i.png is 1024x1000 but should be 1024x1024 (universal 1024@1x) [icon.size-mismatch]"
            ))
    }

    @Test func jsonOutputHasTheContractShape() throws {
        let tree = try TempTree(["P/Info.plist": .bytes([0xDE, 0xAD, 0xBE, 0xEF]), "P/A.imageset/Contents.json": .text("")])
        let result = try check(["--format", "json", tree.path])
        #expect(result.status == 1)
        let root = try json(result)
        #expect(root["version"] as? Int == 1)
        let summary = try #require(root["summary"] as? [String: Int])
        #expect(summary["errors"] == 2 && summary["files"] == 2)
        let projects = try #require(root["projects"] as? [[String: Any]])
        let context = try #require(projects.first?["context"] as? [String: Any])
        #expect(context["deployment_target"] as? String == "12.0")
        let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
        let keys = Set(diagnostics[0].keys)
        #expect(
            keys == [
                "rule", "severity", "code", "root", "project", "path", "line", "column", "message", "fix", "related", "relatedLocations",
            ])
        #expect(diagnostics.map { $0["rule"] as? String } == ["catalog.contents-invalid", "plist.parse-error"], "sorted by path")
        #expect(diagnostics[1]["code"] as? String == "ITMS-90037" && diagnostics[1]["root"] as? String == tree.path)
    }

    @Test func minSeverityFilters() throws {
        let tree = try TempTree([
            "A.imageset/Contents.json": .text("{\"images\":[]}"), "A.imageset/x.png": .png(PNGSpec(width: 4, height: 4, interlaced: true)),
        ])
        #expect(try check(["--no-color", tree.path]).stdout.contains("image.interlaced"))
        let filtered = try check(["--no-color", "--min-severity", "error", tree.path])
        #expect(!filtered.stdout.contains("image.interlaced") && filtered.status == 0)
    }

    @Test func commandLineProblemsExitTwo() throws {
        let missing = try check(["/nonexistent/project"])
        #expect(missing.status == 2 && missing.stderr.contains("cannot check /nonexistent/project: No such file or directory"))
        #expect(try check(["--min-severity", "fatal", "."]).status == 2)
        #expect(try check(["--rules", "/nonexistent/rules", "."]).status == 2)
    }

    @Test func brokenRuleModuleIsReportedWithFileAndLineAndOtherRulesStillRun() throws {
        let rules = try TempTree(["bad.yaml": .text("rules:\n  - kind: png-properties\n    full-decode: [oops\n")])
        let tree = try TempTree(["A.imageset/Contents.json": .text("{ nope")])
        let result = try check(["--no-color", "--rules", rules.path, tree.path])
        #expect(result.status == 2)
        #expect(result.stdout.contains("\(rules.path)/bad.yaml:4: rule module error: YAML syntax error"))
        #expect(result.stdout.contains("catalog.contents-invalid"), "the shipped modules still ran")
    }

    /// Every kind of bad input gives a diagnostic, never a crash.
    @Test func badInputGivesDiagnostics() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"empty.png\"}]}"),
            set + "/empty.png": .bytes([]),
            "App/Assets.xcassets/B.imageset/Contents.json": .text(""),
            "App/Assets.xcassets/B.imageset/cut.png": .png(PNGSpec(width: 64, height: 64, truncateTo: 60)),
            "App/Info.plist": .bytes((0..<512).map { UInt8(($0 * 7919) % 256) }),
        ])
        let result = try check(["--format", "json", tree.path])
        #expect(result.status == 1, "\(result.stderr)")
        let rules = Set(try #require(try json(result)["diagnostics"] as? [[String: Any]]).compactMap { $0["rule"] as? String })
        #expect(rules.isSuperset(of: ["image.not-png", "image.corrupt", "catalog.contents-invalid", "plist.parse-error"]), "\(rules)")
    }

    /// A folder that cannot be listed (mode 0), and one that can be listed but not searched (mode
    /// r--: its names are there, none can be looked up): both are said, never an empty folder.
    @Test(arguments: [
        (mode_t(0), "Permission denied"), (mode_t(0o644), "its names can be listed but not looked up (no search permission)"),
    ])
    func unreadableDirectoryIsADiagnostic(mode: mode_t, reason: String) throws {
        let tree = try TempTree([
            "App/Assets.xcassets/Locked.imageset/Contents.json": .text("{\"images\":[]}"),
            "App/Assets.xcassets/Open.imageset/Contents.json": .text("{ broken"),
        ])
        chmod(tree.path + "/App/Assets.xcassets/Locked.imageset", mode)
        chmod(tree.path, 0o755)
        // Root reads everything: run the check as nobody so the permission is real.
        let asNobody = getuid() == 0
        if asNobody { chmod(Repo.root + "/.build", 0o755) }
        let result =
            asNobody
            ? try runCommand(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", Repo.binary, "check", "--format", "json", tree.path])
            : try check(["--format", "json", tree.path])
        #expect(result.status == 1, "\(result.stderr)")
        let diagnostics = try #require(try json(result)["diagnostics"] as? [[String: Any]])
        let unreadable = diagnostics.first { $0["rule"] as? String == "io.unreadable" }
        #expect(unreadable?["path"] as? String == "App/Assets.xcassets/Locked.imageset")
        #expect((unreadable?["message"] as? String)?.contains(reason) == true, "\(diagnostics)")
        #expect(diagnostics.contains { $0["rule"] as? String == "catalog.contents-invalid" }, "the rest of the tree is still checked")
        #expect(unreadable?["severity"] as? String == "error", "what was not checked cannot pass")
        #expect(
            !diagnostics.contains { $0["rule"] as? String == "catalog.contents-missing" },
            "its Contents.json may well be there: nothing is invented about a folder that cannot be read")
    }

    @Test func singleFileArgumentChecksThatFile() throws {
        let tree = try TempTree([
            "A.imageset/Contents.json": .text("{\"images\":[]}"), "A.imageset/a.png": .bytes([1]), "A.imageset/b.png": .bytes([2]),
        ])
        let result = try check(["--no-color", tree.path + "/A.imageset/a.png"])
        #expect(result.stdout.contains("a.png") && !result.stdout.contains("b.png"))
    }
}

@Suite struct RulesCommandTests {
    @Test func listShowsEveryShippedId() throws {
        let result = try runCommand(Repo.binary, ["rules", "list"])
        #expect(result.status == 0)
        for id in ["image.not-png", "icon.marketing-alpha", "catalog.contents-missing", "plist.parse-error"] {
            #expect(result.stdout.contains(id))
        }
    }

    @Test func checkValidatesAModuleAndRunsItsExamples() throws {
        let dir = try TempTree([
            "good.yaml": .text(
                """
                module: team
                rules:
                  - kind: exec
                    argv: [/bin/echo, '{"diagnostics": [{"rule": "team.hello", "message": "hi"}]}']
                    rules: [{id: team.hello, severity: info}]
                examples:
                  - name: says hello on every image
                    files: {"A.imageset/a.png": {png: {width: 4, height: 4}}}
                    triggers: [team.hello]
                  - name: a wrong expectation
                    files: {"A.imageset/a.png": {png: {width: 4, height: 4}}}
                    passes: [team.hello]
                """),
            "bad.yaml": .text("rules:\n  - kind: exec\n    argv: [/bin/true]\n    rules: [{id: x, severity: fatal}]\n"),
        ])
        let good = try runCommand(Repo.binary, ["rules", "check", dir.path + "/good.yaml"])
        #expect(good.stdout.contains("ok    says hello on every image") && good.stdout.contains("FAIL  a wrong expectation"))
        #expect(good.stdout.contains("1 passed, 1 failed") && good.status == 1)
        let bad = try runCommand(Repo.binary, ["rules", "check", dir.path + "/bad.yaml"])
        #expect(bad.status == 1 && bad.stdout.contains("bad.yaml:4: error: severity: error, warning or info"))
    }
}
