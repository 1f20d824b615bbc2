import Findings
import Foundation
import RuleEngine
import RuleKit
import TestSupport
import Testing

@testable import Repair
@testable import RuleKinds

/// The issue-59 repairs: an extension's version follows the app's build setting, and a localized
/// Info.plist table named in another case is renamed with every reference to it.
@Suite struct InfoPlistRepairsTests {
    static let literal = "<key>CFBundleShortVersionString</key><string>1.0</string><key>CFBundleVersion</key><string>1</string>"
    static let names =
        "<key>CFBundleDisplayName</key><string>Share</string><key>CFBundleName</key><string>Share</string><key>CFBundleExecutable</key><string>Share</string>"

    @Test func anExtensionsLiteralVersionsBecomeTheAppsSettings() throws {
        let tree = try TempTree(BundleKeysKind.app(extensionKeys: Self.names + Self.literal))
        let (plan, _) = RepairKindsTests.plan(tree, only: ["plist.extension-version"])
        #expect(plan.repairs.count == 2, "\(plan.left.map(\.reason))")
        let new = try #require(RepairKindsTests.written(plan, "Share/Info.plist"))
        let value = try PropertyListSerialization.propertyList(from: Data(new.utf8), format: nil) as? [String: Any]
        #expect(value?["CFBundleShortVersionString"] as? String == "$(MARKETING_VERSION)")
        #expect(value?["CFBundleVersion"] as? String == "$(CURRENT_PROJECT_VERSION)")
        #expect(value?["NSExtension"] != nil && value?["CFBundleName"] as? String == "Share", "the rest kept")
        // Applied, the findings are gone.
        _ = try FixJournal.apply(plan)
        let after = tree.engine().diagnostics.filter { $0.rule == "plist.extension-version" }
        #expect(after.isEmpty, "\(after.map(\.message))")
    }

    @Test func anExtensionWhoseSettingDiffersOrAnAppWithLiteralsIsLeft() throws {
        // The extension's target sets its own MARKETING_VERSION: the reference would give 9.9.
        let own = try TempTree(BundleKeysKind.app(extensionKeys: Self.names + Self.literal, extensionExtra: "MARKETING_VERSION = 9.9;"))
        let (plan, _) = RepairKindsTests.plan(own, only: ["plist.extension-version"])
        let short = plan.left.first { $0.finding.message.contains("CFBundleShortVersionString") }
        #expect(short?.reason.hasPrefix("Share's MARKETING_VERSION is \"9.9\"") == true, "\(plan.left.map(\.reason))")
        // The app writes its version out: which of the two is right is the person's call.
        let appPlist = ExampleTrees.plist(
            "<key>CFBundleName</key><string>App</string><key>CFBundleShortVersionString</key><string>2.0</string><key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>"
        )
        let literalApp = try TempTree(BundleKeysKind.app(extensionKeys: Self.names + Self.literal, appPlist: appPlist))
        let (left, _) = RepairKindsTests.plan(literalApp, only: ["plist.extension-version"])
        #expect(left.repairs.map(\.title).allSatisfy { $0.hasPrefix("Set CFBundleVersion") }, "\(left.repairs.map(\.title))")
        #expect(left.left.contains { $0.reason.hasPrefix("the app does not take CFBundleShortVersionString from $(MARKETING_VERSION)") })
    }

    static func localized(_ name: String, languages: [String]) -> [String: ExampleFile] {
        var files: [String: ExampleFile] = [
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleDisplayName</key><string>App</string>")
        ]
        for language in languages { files["App/\(language).lproj/\(name)"] = .text("\"CFBundleDisplayName\" = \"App \(language)\";\n") }
        return files
    }

    @Test func aTableNamedInAnotherCaseIsRenamedInEveryLanguageAndInTheProject() throws {
        var files = Self.localized("infoPlist.strings", languages: ["en", "de"])
        let pbxproj = """
            // !$*UTF8*$!
            {
            	objects = {
            		B1 /* infoPlist.strings in Resources */ = {isa = PBXBuildFile; fileRef = V1 /* infoPlist.strings */; };
            		F1 /* en */ = {isa = PBXFileReference; lastKnownFileType = text.plist.strings; name = en; path = en.lproj/infoPlist.strings; sourceTree = "<group>"; };
            		F2 /* de */ = {isa = PBXFileReference; lastKnownFileType = text.plist.strings; name = de; path = de.lproj/infoPlist.strings; sourceTree = "<group>"; };
            		V1 /* infoPlist.strings */ = {isa = PBXVariantGroup; children = (F1 /* en */, F2 /* de */); name = infoPlist.strings; sourceTree = "<group>"; };
            		P1 = {isa = PBXProject; targets = (); };
            	};
            	rootObject = P1;
            }
            """
        files["App.xcodeproj/project.pbxproj"] = .text(pbxproj)
        let tree = try TempTree(files)
        let (plan, _) = RepairKindsTests.plan(tree, only: ["lproj.infoplist-name-case"])
        #expect(plan.repairs.count == 1 && plan.alsoRepaired.count == 1, "\(plan.repairs.map(\.title)) \(plan.left.map(\.reason))")
        _ = try FixJournal.apply(plan)
        for language in ["en", "de"] {
            let moved = tree.path + "/App/\(language).lproj/InfoPlist.strings"
            #expect(try String(contentsOfFile: moved, encoding: .utf8) == "\"CFBundleDisplayName\" = \"App \(language)\";\n", "bytes kept")
            #expect(!FileManager.default.fileExists(atPath: tree.path + "/App/\(language).lproj/infoPlist.strings"))
        }
        let project = try String(contentsOfFile: tree.path + "/App.xcodeproj/project.pbxproj", encoding: .utf8)
        #expect(project == pbxproj.replacingOccurrences(of: "infoPlist.strings", with: "InfoPlist.strings"))
        #expect(tree.engine().diagnostics.filter { $0.rule == "lproj.infoplist-name-case" }.isEmpty)
    }

    @Test func aTableBesideTheRightOneOrOneTheProjectNamesElsewhereIsLeft() throws {
        var both = Self.localized("infoPlist.strings", languages: ["en"])
        both["App/en.lproj/InfoPlist.strings"] = .text("\"CFBundleName\" = \"A\";\n")
        let (plan, _) = RepairKindsTests.plan(try TempTree(both), only: ["lproj.infoplist-name-case"])
        #expect(plan.repairs.isEmpty && plan.left.first?.reason.contains("merge the two tables by hand") == true)
        // The project names the file in a third folder this rename would not move.
        var elsewhere = Self.localized("infoPlist.strings", languages: ["en"])
        elsewhere["App.xcodeproj/project.pbxproj"] = .text(
            "{ objects = { F1 = {path = en.lproj/infoPlist.strings;}; F2 = {path = fr.lproj/infoPlist.strings;}; }; }")
        let (other, _) = RepairKindsTests.plan(try TempTree(elsewhere), only: ["lproj.infoplist-name-case"])
        #expect(other.repairs.isEmpty && other.left.first?.reason.contains("rename it in Xcode") == true, "\(other.left.map(\.reason))")
    }

    @Test func onlyWholeNamesAreRewritten() {
        let text = "a = en.lproj/infoPlist.strings; b = myinfoPlist.strings;"
        #expect(InfoPlistStringsCaseRepair.renamingWord(text, from: "infoPlist.strings", to: "InfoPlist.strings") == nil)
        #expect(
            InfoPlistStringsCaseRepair.renamingWord("\"infoPlist.strings\" /* infoPlist.strings */", from: "infoPlist.strings", to: "X")
                == "\"X\" /* X */")
    }
}
