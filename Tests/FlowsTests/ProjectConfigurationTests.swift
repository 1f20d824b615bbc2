import Foundation
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// A project's configuration is applied, or the user is told exactly why not (never a quiet
/// "no problems"): `.reswatch.yaml` problems, an unreadable pbxproj, the app's Info.plist.
@Suite struct ProjectConfigurationTests {
    static func plist(_ body: String) -> ExampleFile {
        .text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n")
    }
    static let appPlist = plist("<key>CFBundleIdentifier</key><string>com.example.app</string>")

    func check(_ args: [String]) throws -> (CommandResult, [[String: Any]], [[String: Any]]) {
        let result = checkDiagnostics(args).result
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return (result, try #require(root["diagnostics"] as? [[String: Any]]), try #require(root["projects"] as? [[String: Any]]))
    }

    func findings(_ diagnostics: [[String: Any]], _ rule: String) -> [[String: Any]] {
        diagnostics.filter { $0["rule"] as? String == rule }
    }

    @Test func aConfigThatDoesNotParseIsAnErrorWithItsLineAndExitsTwo() throws {
        let tree = try TempTree([".reswatch.yaml": .text("devices: [iphone]\nignore: [oops\n")])
        let (result, diagnostics, _) = try check([tree.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("config.invalid"))
        let found = try #require(findings(diagnostics, "config.invalid").first)
        #expect(found["severity"] as? String == "error" && found["path"] as? String == ".reswatch.yaml")
        #expect(found["line"] as? Int == 3, "the YAML error's line")
    }

    @Test func unknownKeysAndWrongTypesAreErrorsAndTheRestIsApplied() throws {
        let tree = try TempTree([
            ".reswatch.yaml": .text("device: [iphone]\ndeployment-target: [7]\ndistribution: ad-hoc\nrules: {disable: icon.legacy-slot}\n")
        ])
        let (result, diagnostics, projects) = try check([tree.path])
        #expect(result.status == 2)
        let messages = findings(diagnostics, "config.invalid").map { "\($0["line"] ?? "-") \($0["message"] ?? "")" }
        #expect(messages.contains { $0.hasPrefix("1 unknown setting 'device' (did you mean devices?") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("2 deployment-target: expected a version") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("4 rules.disable: expected a list") }, "\(messages)")
        let context = try #require(projects.first?["context"] as? [String: Any])
        #expect(context["distribution"] as? String == "ad-hoc", "the valid keys are applied")
    }

    @Test func unknownRuleIdsAndEmptyGlobsAreWarningsThatNameWhatIsClose() throws {
        let tree = try TempTree([
            ".reswatch.yaml": .text(
                "rules:\n  disable: [icon.legacy-slots]\n  severity: {image.interlace: off}\nignore: ['**/Generated/*.png', 'A.imageset']\n"
            ),
            "A.imageset/Contents.json": .text("{\"images\":[]}"),
        ])
        let (result, diagnostics, _) = try check([tree.path])
        #expect(result.status == 0, "warnings only: \(result.stderr)")
        let found = findings(diagnostics, "config.invalid")
        #expect(found.allSatisfy { $0["severity"] as? String == "warning" })
        let messages = found.map { "\($0["line"] ?? "-") \($0["message"] ?? "")" }
        #expect(messages.contains("2 no rule has the id 'icon.legacy-slots' (did you mean icon.legacy-slot?); the setting does nothing"))
        #expect(messages.contains { $0.hasPrefix("3 no rule has the id 'image.interlace' (did you mean image.interlaced") })
        #expect(messages.contains("4 ignore: '**/Generated/*.png' matches no file or folder of the project"))
        #expect(found.count == 3, "A.imageset matches: \(messages)")
    }

    @Test func theDaemonShowsConfigurationProblemsToo() throws {
        let tree = try TempTree([".reswatch.yaml": .text("devices: [iphone, watch]\n")])
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        let lines = try daemon.diagnosticLines()
        #expect(lines.contains { $0.hasPrefix("config.invalid .reswatch.yaml devices: unknown device 'watch'") }, "\(lines)")
        try tree.write([".reswatch.yaml": .text("devices: [iphone]\n")])
        try daemon.sync()
        #expect(!(try daemon.diagnosticLines()).contains { $0.hasPrefix("config.invalid") }, "fixed: the finding goes")
    }

    @Test func aBrokenPbxprojIsAnErrorAndTheContextSaysWhatWasUsedInstead() throws {
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": .text("// !$*UTF8*$!\n{\n\tobjects = {\n<<<<<<< HEAD\n"),
            "App/Info.plist": Self.plist("<key>CFBundleIdentifier</key><string>x</string><key>MinimumOSVersion</key><string>14.0</string>"),
        ])
        let (result, diagnostics, projects) = try check([tree.path])
        #expect(result.status == 1)
        let found = try #require(findings(diagnostics, "project.pbxproj-invalid").first)
        #expect(found["path"] as? String == "App.xcodeproj/project.pbxproj")
        #expect((found["message"] as? String)?.contains("its build settings are not used") == true)
        let context = try #require(projects.first?["context"] as? [String: Any])
        #expect((context["sources"] as? [String: String])?["deployment-target"] == "Info.plist")
    }

    @Test func theAppInfoPlistInASubfolderIsFoundAndTheRulesThatNeedItRun() throws {
        let tree = try TempTree([
            ".reswatch.yaml": .text("devices: [iphone]\n"),
            "ios/Runner/Info.plist": Self.plist(
                "<key>CFBundleIdentifier</key><string>x</string><key>UILaunchStoryboardName</key><string>Launch.storyboard</string>"),
            "ios/Widget/Info.plist": Self.plist("<key>NSExtension</key><dict/>"),
            "ios/RunnerTests/Info.plist": Self.plist("<key>CFBundleIdentifier</key><string>t</string>"),
            "ios/GoogleService-Info.plist": Self.plist("<key>API_KEY</key><string>k</string>"),
            "ios/Runner/Base.lproj/Launch.storyboard": .text("<document/>"),
        ])
        let (_, diagnostics, projects) = try check([tree.path])
        let context = try #require(projects.first?["context"] as? [String: Any])
        #expect(context["info_plist"] as? String == "ios/Runner/Info.plist")
        #expect(context["info_plist_reason"] as? String == "the only app Info.plist in the project")
        let storyboard = try #require(findings(diagnostics, "launch.storyboard-missing").first, "the app plist rules ran")
        #expect(storyboard["path"] as? String == "ios/Runner/Info.plist")
    }

    @Test func anAmbiguousInfoPlistIsSaidAndTheKeyResolvesIt() throws {
        var files: [String: ExampleFile] = [
            ".reswatch.yaml": .text("devices: [iphone]\n"), "One/Info.plist": Self.appPlist, "Two/Info.plist": Self.appPlist,
        ]
        let tree = try TempTree(files)
        let (_, diagnostics, _) = try check([tree.path])
        let info = try #require(findings(diagnostics, "project.info-plist-unresolved").first)
        #expect(info["severity"] as? String == "info")
        #expect((info["message"] as? String)?.contains("One/Info.plist, Two/Info.plist") == true)
        #expect((info["message"] as? String)?.contains("set info-plist: in .reswatch.yaml") == true)
        files[".reswatch.yaml"] = .text("devices: [iphone]\ninfo-plist: Two/Info.plist\n")
        try tree.write(files)
        let (_, after, projects) = try check([tree.path])
        #expect(findings(after, "project.info-plist-unresolved").isEmpty)
        let context = try #require(projects.first?["context"] as? [String: Any])
        #expect(
            context["info_plist"] as? String == "Two/Info.plist"
                && context["info_plist_reason"] as? String == "info-plist in .reswatch.yaml")
    }
}
