import Foundation
import RuleEngine
import TestSupport
import Testing

/// An app whose Info.plist Xcode generates whole (GENERATE_INFOPLIST_FILE = YES, no
/// INFOPLIST_FILE: every app Xcode 13 and later creates) is judged like one with a file: its
/// findings sit at the setting that makes it, and a second such app of the project is said.
@Suite struct GeneratedInfoPlistAppTests {
    /// A project with the app targets `names`, each generating its Info.plist from `settings`.
    static func project(_ names: [String], settings: String) -> String {
        var objects = ""
        for (i, name) in names.enumerated() {
            objects += """
                		T\(i) = {isa = PBXNativeTarget; name = "\(name)"; productType = "com.apple.product-type.application"; buildConfigurationList = L\(i); };
                		L\(i) = {isa = XCConfigurationList; buildConfigurations = (C\(i)); };
                		C\(i) = {isa = XCBuildConfiguration; name = Release; buildSettings = {
                			GENERATE_INFOPLIST_FILE = YES;
                			IPHONEOS_DEPLOYMENT_TARGET = 17.0;
                			PRODUCT_BUNDLE_IDENTIFIER = "com.example.\(name)";
                			SDKROOT = iphoneos;
                			\(settings)
                		}; };

                """
        }
        let targets = names.indices.map { "T\($0)" }.joined(separator: ", ")
        return """
            // !$*UTF8*$!
            {
            	objects = {
            		P = {isa = PBXProject; buildConfigurationList = LP; targets = (\(targets)); };
            		LP = {isa = XCConfigurationList; buildConfigurations = (CP); };
            		CP = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            \(objects)	};
            	rootObject = P;
            }
            """
    }

    @Test func aGeneratedAppWithoutALaunchScreenIsAnErrorAtItsSetting() throws {
        let text = Self.project(["Notes"], settings: "INFOPLIST_KEY_UIRequiresFullScreen = YES;")
        let engine = try TempTree(["Notes.xcodeproj/project.pbxproj": .text(text)]).engine()
        let launch = try #require(engine.diagnostics.first { $0.rule == "launch.missing" }, "\(engine.diagnostics.map(\.rule))")
        #expect(launch.path == "Notes.xcodeproj/project.pbxproj")
        #expect(launch.message.contains("the Info.plist Xcode generates for Notes"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(launch.line.map { lines[$0 - 1].contains("GENERATE_INFOPLIST_FILE = YES") } == true, "line \(launch.line ?? 0)")
        // A key that comes from a setting is named by the setting, at its line.
        let fullScreen = try #require(engine.diagnostics.first { $0.rule == "plist.requires-fullscreen-deprecated" })
        #expect(fullScreen.message.hasPrefix("INFOPLIST_KEY_UIRequiresFullScreen is deprecated"))
        #expect(fullScreen.line.map { lines[$0 - 1].contains("INFOPLIST_KEY_UIRequiresFullScreen") } == true)
    }

    @Test func aGeneratedAppWithTheTemplatesSettingsPasses() throws {
        let settings =
            "INFOPLIST_KEY_UILaunchScreen_Generation = YES; INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES; INFOPLIST_KEY_ITSAppUsesNonExemptEncryption = NO;"
        let engine = try TempTree(["Notes.xcodeproj/project.pbxproj": .text(Self.project(["Notes"], settings: settings))]).engine()
        let judged = ["launch.missing", "plist.scene-manifest-missing", "plist.export-compliance-missing", "project.not-checked"]
        let said = engine.diagnostics.filter { judged.contains($0.rule) && !$0.message.contains("required-reason") }
        #expect(said.isEmpty, "\(said.map(\.message))")
    }

    @Test func aSecondGeneratedAppIsSaidNotJudged() throws {
        let engine = try TempTree(["Pair.xcodeproj/project.pbxproj": .text(Self.project(["Notes", "Notes Lite"], settings: ""))]).engine()
        let said = engine.diagnostics.filter { $0.rule == "project.not-checked" && $0.message.hasPrefix("target Notes Lite:") }
        #expect(said.count == 1, "\(engine.diagnostics.map(\.message))")
        #expect(said.first?.message.contains("its keys were not checked") == true)
        // The primary app is judged: one launch.missing, for it alone.
        #expect(engine.diagnostics.filter { $0.rule == "launch.missing" }.count == 1)
    }
}
