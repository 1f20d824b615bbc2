import Findings
import Foundation
import ImageFacts
import RuleEngine
import TestSupport
import Testing

@testable import Repair
@testable import RuleKinds

/// `fix --single-size`: a legacy iOS set with a wrongly sized icon becomes one universal 1024
/// entry, its other files removed (journaled); only where the deployment target is known to be
/// iOS 12 or later, and only for an iOS-only set.
@Suite struct SingleSizeConversionTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"
    static let contents = """
        {
          "images" : [
            { "filename" : "a.png", "idiom" : "iphone", "scale" : "2x", "size" : "60x60" },
            { "filename" : "a.png", "idiom" : "iphone", "scale" : "3x", "size" : "40x40" },
            { "filename" : "b.png", "idiom" : "iphone", "scale" : "3x", "size" : "60x60" },
            { "filename" : "m.png", "idiom" : "ios-marketing", "scale" : "1x", "size" : "1024x1024" }EXTRA
          ],
          "info" : { "author" : "xcode", "version" : 1 }
        }

        """

    static func tree(config: String, extra: String = "") throws -> TempTree {
        try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n" + config),
            set + "/Contents.json": .text(contents.replacingOccurrences(of: "EXTRA", with: extra)),
            set + "/a.png": .png(PNGSpec(width: 120, height: 120)),
            set + "/b.png": .png(PNGSpec(width: 181, height: 180)),
            set + "/m.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
    }

    static func plan(_ tree: TempTree) -> RepairPlan {
        let engine = tree.engine()
        return Repairer.plan(
            root: tree.path, diagnostics: engine.diagnostics, projects: engine.projectContexts, options: RepairOptions(singleSize: true))
    }

    @Test func aLegacySetBecomesOneUniversal1024Entry() throws {
        let tree = try Self.tree(config: "deployment-target: \"15.0\"\n")
        let plan = Self.plan(tree)
        let conversions = plan.repairs.filter { $0.title.hasPrefix("Make AppIcon.appiconset a single-size set: m.png (1024x1024) alone") }
        #expect(conversions.count == 1 && plan.repairs.count == 1, "\(plan.repairs.map(\.title))")
        #expect(plan.alsoRepaired.contains { $0.rule == "icon.size-mismatch" }, "b.png's size goes with the conversion")
        let new = try #require(plan.writes.first { $0.path == Self.set + "/Contents.json" }?.new)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(new)) as? [String: Any])
        let images = try #require(json["images"] as? [[String: String]])
        #expect(images == [["filename": "m.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"]])
        #expect((json["info"] as? [String: Any])?["author"] as? String == "xcode", "the rest of the file is kept")
        let text = String(decoding: new, as: UTF8.self)
        #expect(text.hasSuffix("  ],\n  \"info\" : { \"author\" : \"xcode\", \"version\" : 1 }\n}\n"), "byte for byte after the list")
        #expect(plan.removals.map(\.path).sorted() == [Self.set + "/a.png", Self.set + "/b.png"], "a.png once, though it fills two slots")
        #expect(!plan.writes.contains { $0.path.hasSuffix(".png") }, "no icon is made: Xcode makes them from the master")

        // Carried out and checked again: no icon finding is left.
        try FixJournal.apply(plan)
        let after = tree.engine().diagnostics.map(\.rule).filter { $0.hasPrefix("icon.") }
        #expect(after.isEmpty, "\(after)")
        _ = try FixJournal.undo(root: tree.path)
        #expect(FileManager.default.fileExists(atPath: tree.path + "/" + Self.set + "/b.png"), "undo puts the removed icons back")
    }

    @Test(arguments: [
        ("deployment-target: \"11.0\"\n", "", "the deployment target is iOS 11.0"),
        ("", "", "the deployment target is not known"),
        (
            "deployment-target: \"15.0\"\n",
            ",\n    { \"filename\" : \"m.png\", \"idiom\" : \"mac\", \"scale\" : \"2x\", \"size\" : \"512x512\" }",
            "the set also has mac entries"
        ),
    ])
    func leftWithTheReasonWhereItCannotBe(config: String, extra: String, reason: String) throws {
        let tree = try Self.tree(config: config, extra: extra)
        let plan = Self.plan(tree)
        #expect(plan.writes.isEmpty && plan.removals.isEmpty, "nothing changes")
        let left = try #require(plan.left.first { IconSizeRepair.rules.contains($0.finding.rule) })
        #expect(left.reason.contains(reason) && left.reason.contains("--single-size"), "\(left.reason)")
    }

    /// Without --single-size the same set gets its icon remade at its size, and nothing is removed.
    @Test func withoutTheFlagTheSizeIsFilled() throws {
        let tree = try Self.tree(config: "deployment-target: \"15.0\"\n")
        let engine = tree.engine()
        let plan = Repairer.plan(root: tree.path, diagnostics: engine.diagnostics, projects: engine.projectContexts)
        #expect(plan.removals.isEmpty && plan.writes.contains { $0.path == Self.set + "/b.png" })
    }
}
