import Foundation
import ImageFacts
import RuleEngine
import SystemCalls
import TestSupport
import Testing

/// Every report format is read by a real consumer: SARIF by the SARIF 2.1.0 schema (jsonschema)
/// and sarif-tools, JUnit by junitparser, GitLab Code Quality and Checkstyle against their
/// documented shapes (Tests/Tools/validate_report.py).
@Suite(.enabled(if: Repo.pythonAvailable, "needs the test virtual environment (make test creates .build/test-venv)"))
struct ReportFormatTests {
    static let consumed = ["sarif", "junit", "gitlab", "checkstyle"]

    /// Runs one check writing every consumed format (several --format/--output pairs in one run)
    /// and JSON to standard output; returns the consumers' readings and the findings.
    static func checkAllFormats(_ arguments: [String]) throws -> (findings: [[String: Any]], read: [String: [String: Any]]) {
        let temp = try TempTree()
        let dir = temp.path
        var args = ["check", "--format", "json"]
        for f in consumed { args += ["--format", f, "--output", "\(dir)/report.\(f)"] }
        let result = try runCommand(Repo.binary, args + arguments)
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        var read: [String: [String: Any]] = [:]
        for f in consumed {
            let v = try runCommand(Repo.python, [Repo.root + "/Tests/Tools/validate_report.py", f, "\(dir)/report.\(f)"])
            #expect(v.status == 0, "\(f) report of \(arguments) rejected: \(v.stdout)\(v.stderr)")
            read[f] = try JSONSerialization.jsonObject(with: Data(v.stdout.utf8)) as? [String: Any]
        }
        return (try #require(json["diagnostics"] as? [[String: Any]]), read)
    }

    static func expectEveryFindingRead(_ findings: [[String: Any]], _ read: [String: [String: Any]]) {
        let failing = findings.count { $0["severity"] as? String != "info" }
        #expect(read["sarif"]?["results"] as? Int == findings.count)
        #expect(read["gitlab"]?["issues"] as? Int == findings.count)
        #expect(read["checkstyle"]?["errors"] as? Int == findings.count)
        // One failing case per rule and file: at most one per failing finding, and some if any.
        let junitFailures = read["junit"]?["failures"] as? Int ?? -1
        #expect(junitFailures >= 0 && junitFailures <= failing && (junitFailures > 0) == (failing > 0))
    }

    @Test func everyFormatOfTheExampleIsReadByItsConsumer() throws {
        let (findings, read) = try Self.checkAllFormats(["--base-path", Repo.root, Repo.root + "/Examples/SampleApp"])
        #expect(findings.count == 10)
        Self.expectEveryFindingRead(findings, read)
        #expect(read["junit"]?["failures"] as? Int == 7, "seven rule × file cases failing (the three info findings do not fail)")
        #expect((read["sarif"]?["summary"] as? [String])?.first == "error: 6", "sarif-tools reads six errors")
    }

    @Test(
        .enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"),
        arguments: Repo.corpusApps)
    func everyFormatOfEachCorpusAppIsReadByItsConsumer(_ app: String) throws {
        let (findings, read) = try Self.checkAllFormats(["--base-path", Repo.corpus, Repo.corpus + "/" + app])
        Self.expectEveryFindingRead(findings, read)
    }

    @Test func sarifPointsAtRepositoryFilesWithRulesDocumented() throws {
        let dir = try TempTree(["repo/.git/HEAD": .text("ref: refs/heads/main\n")])
        #expect(try runCommand("/bin/cp", ["-r", Repo.root + "/Examples/SampleApp", dir.path + "/repo/ios"]).status == 0)
        let result = try runCommand(Repo.binary, ["check", "--format", "sarif", dir.path + "/repo/ios"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let uris = results.compactMap {
            (((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]) as? [String: Any])?[
                "uri"]
                as? String
        }
        #expect(uris.count == results.count && uris.allSatisfy { $0.hasPrefix("ios/SampleApp/") }, "relative to the git top level: \(uris)")
        let missing = try #require(results.first { $0["ruleId"] as? String == "icon.file-missing" })
        let region =
            (((missing["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]) as? [String: Any]
        #expect(region?["startLine"] as? Int == 97, "the Contents.json line that names the missing file")
        #expect(region?["startColumn"] as? Int == 7, "where its \"filename\" starts")
        #expect((missing["relatedLocations"] as? [[String: Any]])?.count == 1)
        // An image in a set: the Contents.json entry that uses it, with its line, as a related location.
        let size = try #require(results.first { $0["ruleId"] as? String == "icon.size-mismatch" })
        let entry = try #require((size["relatedLocations"] as? [[String: Any]])?.first)
        let place = try #require(entry["physicalLocation"] as? [String: Any])
        #expect(((place["artifactLocation"] as? [String: Any])?["uri"] as? String)?.hasSuffix("AppIcon.appiconset/Contents.json") == true)
        #expect((place["region"] as? [String: Any])?["startLine"] as? Int == 43)
        #expect((entry["message"] as? [String: Any])?["text"] as? String == "the Contents.json entry that uses Icon-iphone-60@2x.png")
        let rules = try #require((run["tool"] as? [String: Any]).flatMap { ($0["driver"] as? [String: Any])?["rules"] as? [[String: Any]] })
        let alpha = try #require(rules.first { $0["id"] as? String == "icon.marketing-alpha" })
        #expect((alpha["properties"] as? [String: Any])?["itms"] as? String == "ITMS-90717")
        // A rule whose code comes with the finding names the codes its findings carry.
        let fileMissing = try #require(rules.first { $0["id"] as? String == "icon.file-missing" })
        #expect((fileMissing["properties"] as? [String: Any])?["itms"] as? String == "ITMS-90023")
        #expect((alpha["helpUri"] as? String)?.hasSuffix("docs/rules.md#iconmarketing-alpha") == true)
    }

    /// Names that are not UTF-8, or that hold a newline, a quote, "<", "&" or an ANSI escape, stay
    /// valid in every format: the consumers still read the reports, and no name forges a line.
    @Test func hostileFileNamesKeepEveryFormatValid() throws {
        let tree = try TempTree()
        let set = try tree.addMarketingIconApp()
        let names = [
            FileName.decode(Array("Icon".utf8) + [0xFF] + Array(".png".utf8)),
            "x.png\n::error file=forged::forged \"<&>' \u{1B}[31m.png",
        ]
        for name in names {
            let fd = FileName.withCString(set + "/" + name) { open($0, O_WRONLY | O_CREAT, 0o644) }
            #expect(fd >= 0)
            close(fd)
        }
        let (findings, read) = try Self.checkAllFormats(["--base-path", tree.path, tree.path + "/App"])
        #expect(findings.count { $0["rule"] as? String == "icon.unassigned" } == 2, "both stray files are found: \(findings)")
        Self.expectEveryFindingRead(findings, read)
        let github = try runCommand(Repo.binary, ["check", "--format", "github", "--base-path", tree.path, tree.path + "/App"])
        let lines = github.stdout.split(separator: "\n")
        #expect(
            lines.allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") || $0.hasPrefix("::notice ") }, "\(github.stdout)")
        #expect(!lines.contains { $0.hasPrefix("::error file=forged") } && !github.stdout.contains("\u{1B}"), "\(github.stdout)")
        #expect(github.stdout.contains("x.png%0A%3A%3Aerror file=forged%3A%3Aforged \"<&>' \\x1B[31m.png"), "escaped in the file property")
    }

    /// A rule module that fails to load: the machine formats say the run was incomplete, and the
    /// exit status is 2 whatever else was found.
    @Test func aBrokenRuleModuleIsSaidInTheReports() throws {
        let rules = try TempTree(["bad.yaml": .text("rules:\n  - kind: png-properties\n    full-decode: [oops\n")])
        let out = try TempTree()
        let result = try runCommand(
            Repo.binary,
            [
                "check", "--rules", rules.path, "--format", "sarif", "--output", out.path + "/r.sarif", "--format", "junit", "--output",
                out.path + "/r.xml", "--format", "github", Repo.root + "/Examples/SampleApp",
            ])
        #expect(result.status == 2 && result.stderr.contains("rule module error(s); results are incomplete"))
        #expect(result.stdout.contains("::error file=\(rules.path)/bad.yaml,title=rule module error::"), "\(result.stdout)")
        let log = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path + "/r.sarif"))) as? [String: Any])
        let invocation = try #require(((log["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect((invocation["toolExecutionNotifications"] as? [[String: Any]])?.count == 1)
        let v = try runCommand(Repo.python, [Repo.root + "/Tests/Tools/validate_report.py", "sarif", out.path + "/r.sarif"])
        #expect(v.status == 0, "\(v.stdout)")
        let junit = try String(contentsOfFile: out.path + "/r.xml", encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"rule modules\"") && junit.contains("<error type=\"rule module error\""))
    }

    /// The GitHub Actions annotations of the example, exactly.
    @Test func githubWorkflowCommandsOfTheExample() throws {
        let result = try runCommand(
            Repo.binary, ["check", "--format", "github", "--base-path", Repo.root, Repo.root + "/Examples/SampleApp"])
        #expect(result.status == 1)
        let set = "Examples/SampleApp/SampleApp/Assets.xcassets"
        #expect(
            result.stdout.split(separator: "\n").map(String.init) == [
                "::error file=\(set)/AppIcon.appiconset/Contents.json,line=97,col=7,title=icon.file-missing (ITMS-90023)::Contents.json names Icon-ipad-83.5@2x.png for the ipad 83.5@2x slot, but the file is not in AppIcon.appiconset (a required slot: App Store Connect rejects a build without it)",
                "::error file=\(set)/AppIcon.appiconset/Icon-ios-marketing-1024@1x.png,title=icon.marketing-alpha (ITMS-90717)::App Store icon Icon-ios-marketing-1024@1x.png has an alpha channel (colour type 6, although every pixel is opaque)",
                "::error file=\(set)/AppIcon.appiconset/Icon-iphone-60@2x.png,title=icon.size-mismatch::Icon-iphone-60@2x.png is 121x120 but should be 120x120 (iphone 60@2x)",
                "::warning file=\(set)/AppIcon.appiconset/Icon-old-57.png,title=icon.unassigned::Icon-old-57.png is in AppIcon.appiconset but Contents.json does not assign it to a slot",
                "::error file=\(set)/Logo.imageset/logo.png,title=image.not-png::logo.png is not a PNG: its content is JPEG data",
                "::error file=\(set)/Splash.imageset/splash.png,title=catalog.contents-missing::Splash.imageset has no Contents.json",
                "::notice file=Examples/SampleApp/SampleApp/Info.plist,line=1,col=1,title=project.not-checked::the app has no UIApplicationSceneManifest, and its sources are not in the tree: whether it is a SwiftUI app (exempt) cannot be told, so plist.scene-manifest-missing was not judged",
                "::notice file=Examples/SampleApp/SampleApp/Info.plist,line=4,col=1,title=plist.device-capabilities::the app's Info.plist has no UIRequiredDeviceCapabilities (the deployment target is 15.0: every such device is arm64); add <key>UIRequiredDeviceCapabilities</key> to the top-level <dict> at line 4",
                "::notice file=Examples/SampleApp/SampleApp/Info.plist,line=4,col=1,title=plist.export-compliance-missing::the app's Info.plist has no ITSAppUsesNonExemptEncryption: each TestFlight build waits at Missing Compliance; add <key>ITSAppUsesNonExemptEncryption</key> to the top-level <dict> at line 4",
                "::error file=Examples/SampleApp/SampleApp/Info.plist,line=19,col=2,title=plist.orientations (ITMS-90474)::the app runs on iPad with multitasking but does not support UIInterfaceOrientationLandscapeLeft, UIInterfaceOrientationLandscapeRight, UIInterfaceOrientationPortraitUpsideDown (iPad because TARGETED_DEVICE_FAMILY = 1,2 in SampleApp.xcodeproj/project.pbxproj, target SampleApp, Release)",
            ])
    }
}
