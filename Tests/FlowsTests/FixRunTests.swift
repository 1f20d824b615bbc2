import Flows
import Foundation
import ImageFacts
import RuleEngine
import TestSupport
import Testing

/// `reswatch fix` (`FixRun`, in-process): the plan changes nothing, --apply repairs and changes
/// nothing else, --undo restores every byte; on copies of the real apps too.
@Suite struct FixRunTests {
    static func fix(_ paths: [String], _ configure: (inout FixOptions) -> Void = { _ in }) -> CommandResult {
        fixInProcess(paths, configure)
    }

    @Test func thePlanChangesNothingApplyRepairsUndoRestores() throws {
        let tree = try FixTrees.copy(Repo.root + "/Examples/SampleApp")
        let before = FixTrees.snapshot(tree.path)
        let plan = Self.fix([tree.path])
        #expect(plan.status == 1, "findings remain: \(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("4 repairs (a plan: nothing is changed; --apply carries it out)"))
        #expect(
            plan.stdout.contains("PNG 120x120 8-bit RGB") && plan.stdout.contains("(was PNG 121x120 8-bit RGB"), "no diff of binary files")
        #expect(plan.stdout.contains("-      \"filename\": \"logo.png\",\n   +      \"filename\": \"logo.jpg\","), "\(plan.stdout)")
        #expect(plan.stdout.contains("[plist.orientations]: your choice: support rotation on iPad"))
        #expect(FixTrees.snapshot(tree.path) == before, "a plan changes nothing")
        let applied = Self.fix([tree.path]) { $0.apply = true }
        #expect(applied.stdout.contains("applied 4 repair(s)"), "\(applied.stdout)\(applied.stderr)")
        let after = FixTrees.snapshot(tree.path)
        let changed = Set(after.keys).symmetricDifference(before.keys).union(
            before.keys.filter { after[$0] != nil && after[$0] != before[$0] })
        #expect(
            changed
                == [
                    "SampleApp/Assets.xcassets/Logo.imageset/logo.png", "SampleApp/Assets.xcassets/Logo.imageset/logo.jpg",
                    "SampleApp/Assets.xcassets/Logo.imageset/Contents.json",
                    "SampleApp/Assets.xcassets/AppIcon.appiconset/Icon-ipad-83.5@2x.png",
                    "SampleApp/Assets.xcassets/AppIcon.appiconset/Icon-ios-marketing-1024@1x.png",
                    "SampleApp/Assets.xcassets/AppIcon.appiconset/Icon-iphone-60@2x.png",
                ], "only what the plan named")
        let check = checkDiagnostics([tree.path])
        let left = Set(check.diagnostics.compactMap { $0["rule"] as? String })
        #expect(
            left == [
                "icon.unassigned", "catalog.contents-missing", "plist.device-capabilities", "plist.orientations", "project.not-checked",
                "plist.export-compliance-missing",
            ], "\(left)")
        // Every PNG written passes pngcheck (Debian's), a reader that is not libpng's.
        let set = tree.path + "/SampleApp/Assets.xcassets/AppIcon.appiconset/"
        let pngcheck = try runCommand(
            "/usr/bin/pngcheck", ["Icon-ipad-83.5@2x.png", "Icon-ios-marketing-1024@1x.png", "Icon-iphone-60@2x.png"].map { set + $0 })
        #expect(pngcheck.status == 0 && pngcheck.stdout.contains("No errors were detected in 3 of the 3 files"), "\(pngcheck.stdout)")
        #expect(pngcheck.stdout.contains("(1024x1024, 24-bit RGB, non-interlaced"), "the App Store icon lost its alpha channel")
        let undo = Self.fix([tree.path]) { $0.undo = true }
        #expect(undo.status == 0 && undo.stdout.contains("restored 5 file(s)"), "\(undo.stdout)\(undo.stderr)")
        #expect(FixTrees.snapshot(tree.path) == before, "every byte restored")
        let again = Self.fix([tree.path]) { $0.undo = true }
        #expect(again.status == 2 && again.stderr.contains("nothing to undo"))
    }

    /// A plan names files from the tree: a newline or an escape sequence in a name is shown
    /// escaped, so it can neither forge a line of the plan nor recolour the terminal.
    /// Every finding counted as remaining is listed with its reason: a Contents.json that does
    /// not parse has no repair, and the plan says so rather than only counting it.
    @Test func everyRemainingFindingIsListedWithItsReason() throws {
        let tree = try TempTree()
        try tree.addMarketingIconApp()
        try tree.write(["App/Assets.xcassets/Logo.imageset/Contents.json": .text("{\"images\": [")])
        let plan = Self.fix([tree.path])
        #expect(plan.status == 1, "\(plan.stdout)\(plan.stderr)")
        let remain = try #require(plan.stdout.split(separator: "\n").first { $0.contains("finding(s) at warning or above remain") })
        let count = Int(remain.prefix { $0.isNumber }) ?? -1
        let listed = plan.stdout.split(separator: "\n").drop { !$0.hasPrefix("Left as they are") }.dropFirst().prefix { $0.hasPrefix("  ") }
        #expect(listed.count == count, "\(plan.stdout)")
        #expect(listed.contains { $0.contains("Logo.imageset/Contents.json") && $0.contains("no repair for catalog.contents-invalid") })
    }

    @Test func aPlanShowsHostileNamesEscaped() throws {
        let tree = try FixTrees.copy(Repo.root + "/Examples/SampleApp")
        let catalog = tree.path + "/SampleApp/Assets.xcassets/"
        #expect(rename(catalog + "Logo.imageset", catalog + "Lo\ngo\u{1B}[31m.imageset") == 0)
        let plan = Self.fix([tree.path])
        #expect(plan.stdout.contains("rename SampleApp/Assets.xcassets/Lo\\ngo\\x1B[31m.imageset/logo.png → "), "\(plan.stdout)")
        #expect(plan.stdout.contains("--- a/SampleApp/Assets.xcassets/Lo\\ngo\\x1B[31m.imageset/Contents.json"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("\u{1B}") && !plan.stdout.contains("Lo\ngo"), "\(plan.stdout)")
    }

    /// A transparent App Store icon is never flattened without --background; with it, it is laid
    /// over that colour.
    @Test func aTransparentStoreIconIsFlattenedOnlyOverAGivenColour() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            set + "/Contents.json": .text(
                "{\"images\":[{\"filename\":\"i.png\",\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\"}]}"),
            set + "/i.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba, transparentPixels: true)),
        ])
        let before = FixTrees.snapshot(tree.path)
        let plain = Self.fix([tree.path]) { $0.apply = true }
        #expect(
            plain.stdout.contains("[icon.marketing-alpha]: it has transparent pixels: flattening changes how it looks"), "\(plain.stdout)")
        #expect(FixTrees.snapshot(tree.path) == before, "not flattened")
        let white = Self.fix([tree.path]) {
            $0.apply = true
            $0.choices.options.background = (255, 255, 255)
        }
        #expect(white.stdout.contains("Lay \(set)/i.png over the background colour given"), "\(white.stdout)")
        let check = try runCommand("/usr/bin/pngcheck", [tree.path + "/" + set + "/i.png"])
        #expect(check.status == 0 && check.stdout.contains("24-bit RGB"), "\(check.stdout)")
    }

    /// --single-size on the example (iOS 15, from its project): the legacy AppIcon set becomes one
    /// universal 1024 entry, no icon size or missing-file finding is left, --undo gives back every
    /// byte of the 15 icons it removed.
    @Test func singleSizeConvertsTheLegacySetAndUndoPutsItBack() throws {
        let tree = try FixTrees.copy(Repo.root + "/Examples/SampleApp")
        let before = FixTrees.snapshot(tree.path)
        let applied = Self.fix([tree.path]) {
            $0.apply = true
            $0.choices.options.singleSize = true
        }
        #expect(applied.stdout.contains("a single-size set: Icon-ios-marketing-1024@1x.png (1024x1024) alone"), "\(applied.stdout)")
        #expect(applied.stdout.contains("15 icon(s) it no longer needs removed"))
        let set = "SampleApp/Assets.xcassets/AppIcon.appiconset/"
        #expect(
            Set(FixTrees.snapshot(tree.path).keys.filter { $0.hasPrefix(set) })
                == Set(["Contents.json", "Icon-ios-marketing-1024@1x.png", "Icon-old-57.png"].map { set + $0 }))
        let left = Set(checkDiagnostics([tree.path]).diagnostics.compactMap { $0["rule"] as? String })
        #expect(
            left.isDisjoint(with: [
                "icon.size-mismatch", "icon.file-missing", "icon.missing-required", "icon.missing-recommended", "icon.marketing-alpha",
            ]), "\(left)")
        let undo = Self.fix([tree.path]) { $0.undo = true }
        #expect(undo.status == 0 && undo.stdout.contains("restored 19 file(s)"), "\(undo.stdout)\(undo.stderr)")
        #expect(FixTrees.snapshot(tree.path) == before, "every byte restored")
    }

    @Test func onlyLimitsTheRepairs() throws {
        let tree = try FixTrees.copy(Repo.root + "/Examples/SampleApp")
        let plan = Self.fix([tree.path]) { $0.choices.only = ["icon.unassigned"] }
        #expect(plan.stdout.hasPrefix("\(tree.path): 0 repairs"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("logo.jpg"))
    }

    /// The real apps: after --apply nothing fixable is left, files the plan did not name are
    /// byte-identical, and --undo restores every byte.
    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"))
    func onCopiesOfTheRealApps() throws {
        var repaired = 0
        for app in try FileManager.default.contentsOfDirectory(atPath: Repo.corpus).filter({ !$0.hasSuffix(".md") }).sorted() {
            let tree = try FixTrees.copy(Repo.corpus + "/" + app)
            let before = FixTrees.snapshot(tree.path)
            _ = Self.fix([tree.path]) { $0.apply = true }
            let again = Self.fix([tree.path])
            #expect(again.stdout.hasPrefix("\(tree.path): 0 repairs"), "\(app): something fixable is left: \(again.stdout)")
            let after = FixTrees.snapshot(tree.path)
            let journals = (try? FileManager.default.contentsOfDirectory(atPath: tree.path + "/.reswatch/fix")) ?? []
            var named = Set<String>()
            for journal in journals {
                let data = try Data(contentsOf: URL(fileURLWithPath: tree.path + "/.reswatch/fix/" + journal + "/journal.json"))
                let changes = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["changes"] as? [[String: Any]] ?? []
                for change in changes { named.formUnion([change["path"] as? String, change["to"] as? String].compactMap { $0 }) }
            }
            repaired += named.count
            for (path, data) in before where !named.contains(path) { #expect(after[path] == data, "\(app): \(path) changed") }
            if !journals.isEmpty { _ = Self.fix([tree.path]) { $0.undo = true } }
            #expect(FixTrees.snapshot(tree.path) == before, "\(app): undo restores every byte")
        }
        #expect(repaired >= 2, "the corpus has repairs to make (HomeAssistant's and NetNewsWire's CFBundleIconName)")
    }
}
