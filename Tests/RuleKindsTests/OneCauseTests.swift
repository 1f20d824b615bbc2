import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// One cause, one finding (issue 26): a finding that only follows from another is folded into it,
/// and stands on its own again when its cause is not reported.
@Suite struct OneCauseTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"

    static func singleSizeWithoutItsFile(config: String = "") -> [String: ExampleFile] {
        [
            "App/.reswatch.yaml": .text("devices: [iphone, ipad]\ndeployment-target: \"15.0\"\n" + config),
            set + "/Contents.json": .text(
                "{\n  \"images\" : [\n    {\n      \"filename\" : \"icon-1024.png\",\n      \"idiom\" : \"universal\",\n      \"platform\" : \"ios\",\n      \"size\" : \"1024x1024\"\n    }\n  ]\n}\n"
            ),
        ]
    }

    @Test func aSingleSizeSetWithoutItsMasterIsOneError() throws {
        let engine = try TempTree(Self.singleSizeWithoutItsFile()).engine()
        let icons = engine.diagnostics.filter { $0.rule.hasPrefix("icon.") }
        #expect(icons.map(\.rule) == ["icon.file-missing"], "\(icons.map { "\($0.rule): \($0.message)" })")
        let message = try #require(icons.first?.message)
        #expect(icons.first?.severity == .error && icons.first?.line == 4)
        #expect(message.contains("; following from it: no 120x120 icon for the iphone 60@2x slot (ITMS-90022) [icon.missing-required]"))
        #expect(message.contains("no 167x167 icon for the ipad 83.5@2x slot (ITMS-90023) [icon.missing-required]"))
        #expect(message.contains("[icon.missing-recommended]"))
    }

    @Test func withItsCauseTurnedOffAConsequenceStandsOnItsOwn() throws {
        let engine = try TempTree(Self.singleSizeWithoutItsFile(config: "rules: {disable: [icon.file-missing]}\n")).engine()
        let rules = engine.diagnostics.map(\.rule)
        #expect(!rules.contains("icon.file-missing"))
        #expect(rules.filter { $0 == "icon.missing-required" }.count == 3, "\(rules)")
    }

    @Test func aConsequenceMoreSevereThanItsCauseRaisesIt() throws {
        // The cause re-graded to a warning: the errors that follow from it keep the finding an error.
        let engine = try TempTree(Self.singleSizeWithoutItsFile(config: "rules: {severity: {icon.file-missing: warning}}\n")).engine()
        let missing = try #require(engine.diagnostics.first { $0.rule == "icon.file-missing" })
        #expect(missing.severity == .error)
        #expect(!engine.diagnostics.contains { $0.rule == "icon.missing-required" })
    }

    @Test func aLegacyIconTheInfoPlistNamesButTheProjectLacksIsOneFinding() throws {
        var files = LegacyProjectTests.project()
        // "Icon-60" names nothing any more, and no other file is 120x120 (Icon-Small-40@3x is).
        for name in ["Icon-60@2x.png", "Icon-60@3x.png", "Icon-Small-40@3x.png"] { files["Legacy/Resources/\(name)"] = nil }
        let engine = try TempTree(files).engine()
        let found = engine.diagnostics.filter { $0.severity >= .warning }
        #expect(!found.contains { $0.rule == "icon.missing-required" }, "\(found.map { "\($0.rule): \($0.message)" })")
        let invalid = try #require(found.first { $0.rule == "plist.invalid-image-path" && $0.message.contains("Icon-60") })
        #expect(
            invalid.message.contains("following from it: no 120x120 icon (Icon-60@2x.png) [icon.missing-required]"), "\(invalid.message)")
    }

    /// A set with a real 1024 master and a missing optional file: nothing is folded that does not follow.
    @Test func independentFindingsAreNotFolded() throws {
        var files = Self.singleSizeWithoutItsFile()
        files[Self.set + "/icon-1024.png"] = .png(PNGSpec(width: 1024, height: 1000))
        let engine = try TempTree(files).engine()
        let icons = engine.diagnostics.filter { $0.rule.hasPrefix("icon.") }
        #expect(icons.map(\.rule) == ["icon.size-mismatch"])
        #expect(!(icons.first?.message.contains("following from it") ?? true))
    }
}
