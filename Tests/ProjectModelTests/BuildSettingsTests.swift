import Foundation
import ImageFacts
import ProjectModel
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// Generated Xcode projects of the shapes real apps have, read the way xcodebuild resolves them.
@Suite struct BuildSettingsTests {
    /// A pbxproj with one iOS app target `App` (and optional extra objects / target ids).
    static func pbxproj(
        appSettings: String, appBase: String? = nil, projectSettings: String = "", extraTargets: String = "", extraObjects: String = "",
        defaultConfiguration: String = "Release", appConfigurations: String = "C2"
    ) -> ExampleFile {
        .text(
            """
            // !$*UTF8*$!
            {
            	archiveVersion = 1;
            	objectVersion = 56;
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1\(extraTargets)); };
            		G0 = {isa = PBXGroup; children = (G1, F1); sourceTree = "<group>"; };
            		G1 = {isa = PBXGroup; children = (F2); path = Config; sourceTree = "<group>"; };
            		F1 = {isa = PBXFileReference; path = "Pods/Target Support Files/Pods-App/Pods-App.release.xcconfig"; sourceTree = "<group>"; };
            		F2 = {isa = PBXFileReference; path = App.xcconfig; sourceTree = "<group>"; };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); defaultConfigurationName = Release; };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { \(projectSettings) }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (\(appConfigurations)); defaultConfigurationName = \(defaultConfiguration); };
            		C2 = {isa = XCBuildConfiguration; name = Release; \(appBase.map { "baseConfigurationReference = \($0);" } ?? "") buildSettings = { \(appSettings) }; };
            \(extraObjects)
            	};
            	rootObject = P1;
            }
            """)
    }

    static let appPlist = ExampleFile.text(
        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>x</string></dict></plist>\n")

    func check(_ files: [String: ExampleFile]) throws -> (context: [String: Any], rules: [String]) {
        let tree = try TempTree(files)
        let result = try runCommand(Repo.binary, ["check", "--format", "json", tree.path])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let context = try #require((root["projects"] as? [[String: Any]])?.first?["context"] as? [String: Any])
        let rules = (root["diagnostics"] as? [[String: Any]] ?? []).map { "\($0["rule"]!) \($0["path"]!)" }
        return (context, rules)
    }

    @Test func aCocoaPodsTargetWithoutAFamilyIsIPhoneOnly() throws {
        let (context, rules) = try check([
            "App.xcodeproj/project.pbxproj": Self.pbxproj(
                appSettings: "IPHONEOS_DEPLOYMENT_TARGET = 15.0; INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;", appBase: "F1"),
            "App/Info.plist": Self.appPlist,
        ])
        #expect(context["devices"] as? [String] == ["iphone"], "Xcode's default TARGETED_DEVICE_FAMILY is 1")
        #expect((context["origins"] as? [String: String])?["devices"] == "Xcode default")
        #expect(!rules.contains { $0.hasPrefix("project.xcconfig-invalid") }, "the Pods xcconfig sets nothing reswatch reads: \(rules)")
        #expect(!rules.contains { $0.hasPrefix("plist.orientations") }, "no iPad multitasking requirement for an iPhone app")
    }

    /// Also with the line ends and byte-order mark a Windows checkout gives (the real binary on real files).
    @Test(arguments: ["\n", "\r\n", "\r", "BOM"])
    func aFamilySetOnlyInAnIncludedXcconfigWithInherited(_ ending: String) throws {
        let end = ending == "BOM" ? "\n" : ending
        let app = "// the app\n#include \"Shared.xcconfig\"\n#include? \"Local.xcconfig\"\nTARGETED_DEVICE_FAMILY = $(inherited),2\n"
            .replacingOccurrences(of: "\n", with: end)
        let (context, _) = try check([
            "App.xcodeproj/project.pbxproj": Self.pbxproj(
                appSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;", appBase: "F2",
                projectSettings: "TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 14.0;"),
            "Config/App.xcconfig": .bytes((ending == "BOM" ? [0xEF, 0xBB, 0xBF] : []) + Array(app.utf8)),
            "Config/Shared.xcconfig": .text(
                "IPHONEOS_DEPLOYMENT_TARGET = $(BASE_TARGET) // comment\nBASE_TARGET = 16.2;\n".replacingOccurrences(of: "\n", with: end)),
            "App/Info.plist": Self.appPlist,
        ])
        #expect(context["devices"] as? [String] == ["iphone", "ipad"], "$(inherited) is the project's 1, then ,2")
        #expect(context["deployment_target"] as? String == "16.2", "$(BASE_TARGET) expanded")
        let origins = try #require(context["origins"] as? [String: String])
        #expect(origins["devices"] == "Config/App.xcconfig:4")
        #expect(origins["deployment-target"] == "Config/Shared.xcconfig:1")
    }

    @Test func theSharedSchemesArchiveConfigurationChoosesTheIconSet() throws {
        let scheme = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme version = "1.7">
               <BuildAction parallelizeBuildables = "YES">
                  <BuildActionEntries>
                     <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForArchiving = "YES">
                        <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "T1" BlueprintName = "App"/>
                     </BuildActionEntry>
                  </BuildActionEntries>
               </BuildAction>
               <ArchiveAction
                  buildConfiguration = "AppStore"
                  revealArchiveInOrganizer = "YES">
               </ArchiveAction>
            </Scheme>
            """
        let objects = """
            		C3 = {isa = XCBuildConfiguration; name = Debug; buildSettings = { ASSETCATALOG_COMPILER_APPICON_NAME = AppIconDebug; INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; }; };
            		C4 = {isa = XCBuildConfiguration; name = AppStore; buildSettings = { ASSETCATALOG_COMPILER_APPICON_NAME = AppIconStore; INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; }; };
            """
        var files: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": Self.pbxproj(
                appSettings: "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;", extraObjects: objects, defaultConfiguration: "Debug",
                appConfigurations: "C3, C4"),
            "App/Info.plist": Self.appPlist,
        ]
        let (withoutScheme, _) = try check(files)
        #expect(withoutScheme["app_icon"] as? String == "AppIconDebug", "no Release, no scheme: defaultConfigurationName")
        files["App.xcodeproj/xcshareddata/xcschemes/App.xcscheme"] = .text(scheme)
        let (context, _) = try check(files)
        #expect(context["app_icon"] as? String == "AppIconStore")
        #expect(context["configuration"] as? String == "AppStore")
        #expect((context["configuration_reason"] as? String)?.contains("shared scheme App") == true)

        // An extension's scheme builds its host app along (the extension first): the scheme
        // whose own product the app is decides, whatever their names' order (issue 58, cause 13).
        files["App.xcodeproj/xcshareddata/xcschemes/App.xcscheme"] = nil
        files["App.xcodeproj/xcshareddata/xcschemes/Production.xcscheme"] = .text(scheme)
        let widget = scheme.replacingOccurrences(of: "\"AppStore\"", with: "\"Debug\"").replacingOccurrences(
            of: "<BuildActionEntries>",
            with: """
                <BuildActionEntries>
                <BuildActionEntry buildForArchiving = "YES"><BuildableReference BlueprintIdentifier = "T9" BlueprintName = "Widget"/></BuildActionEntry>
                """)
        files["App.xcodeproj/xcshareddata/xcschemes/AWidget.xcscheme"] = .text(widget)
        let (ranked, _) = try check(files)
        #expect(ranked["configuration"] as? String == "AppStore", "\(ranked)")
        #expect((ranked["configuration_reason"] as? String)?.contains("shared scheme Production") == true, "\(ranked)")
    }

    @Test func aSetTheShippingConfigurationDoesNotUseIsCheckedOnlyForWhatMakesItUnusable() throws {
        let objects = """
            		C3 = {isa = XCBuildConfiguration; name = Debug; buildSettings = { ASSETCATALOG_COMPILER_APPICON_NAME = AppIconDebug; INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; }; };
            """
        let old = "App/Assets.xcassets/AppIconOld.appiconset/"
        let debug = "App/Assets.xcassets/AppIconDebug.appiconset/"
        let marketing = ExampleFile.text(
            "{\"images\":[{\"idiom\":\"ios-marketing\",\"size\":\"1024x1024\",\"scale\":\"1x\",\"filename\":\"m.png\"},{\"idiom\":\"iphone\",\"size\":\"60x60\",\"scale\":\"2x\",\"filename\":\"gone.png\"}]}"
        )
        let (_, rules) = try check([
            "App.xcodeproj/project.pbxproj": Self.pbxproj(
                appSettings: "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;",
                extraObjects: objects, appConfigurations: "C2, C3"),
            "App/Info.plist": Self.appPlist,
            old + "Contents.json": marketing, old + "m.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba)),
            old + "stray.png": .png(PNGSpec(width: 8, height: 8)),
            debug + "Contents.json": marketing, debug + "m.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba)),
        ])
        #expect(rules.contains("icon.not-shipped App/Assets.xcassets/AppIconOld.appiconset/Contents.json"), "\(rules)")
        #expect(rules.contains("icon.file-missing \(old)Contents.json"), "a missing file makes the set unusable: still checked")
        #expect(!rules.contains("icon.marketing-alpha \(old)m.png") && !rules.contains("icon.unassigned \(old)stray.png"))
        // Only Debug builds with it: App Store Connect never sees it (issue 58, cause 7).
        #expect(rules.contains("icon.not-shipped \(debug)Contents.json"), "\(rules)")
        #expect(!rules.contains("icon.marketing-alpha \(debug)m.png"), "a set only Debug builds is not judged with App Store rules")
    }

    @Test func aFindingThatDependsOnTheDevicesSaysWhy() throws {
        let plist = ExampleFile.text(
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>x</string><key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationPortrait</string></array></dict></plist>\n"
        )
        let tree = try TempTree(["App/.reswatch.yaml": .text("deployment-target: \"15.0\"\n"), "App/Info.plist": plist])
        let assumed = tree.engine().diagnostics.first { $0.rule == "plist.orientations" }
        #expect(
            assumed?.message.contains("no setting names the devices, so reswatch assumes iPhone and iPad") == true,
            "\(assumed?.message ?? "-")")
        try tree.write(["App/.reswatch.yaml": .text("deployment-target: \"15.0\"\ndevices: [iphone, ipad]\n")])
        let configured = tree.engine().diagnostics.first { $0.rule == "plist.orientations" }
        #expect(configured?.message.contains("iPad because devices: [iphone, ipad] in .reswatch.yaml") == true)
    }

    @Test func twoIOSAppsInOneProjectAreEachJudgedWithTheirOwnSettings() throws {
        // Lite (iPhone only) and Pro (universal) share a folder; each bundles its own catalog.
        let objects = """
            		T2 = {isa = PBXNativeTarget; name = Pro; productType = "com.apple.product-type.application"; buildConfigurationList = L3; buildPhases = (R2); };
            		L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
            		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = Apps/Pro-Info.plist; TARGETED_DEVICE_FAMILY = "1,2"; IPHONEOS_DEPLOYMENT_TARGET = 15.0; ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; }; };
            		R1 = {isa = PBXResourcesBuildPhase; files = (B1); };
            		R2 = {isa = PBXResourcesBuildPhase; files = (B2); };
            		B1 = {isa = PBXBuildFile; fileRef = F3; };
            		B2 = {isa = PBXBuildFile; fileRef = F4; };
            		F3 = {isa = PBXFileReference; path = Apps/Lite.xcassets; sourceTree = "<group>"; };
            		F4 = {isa = PBXFileReference; path = Apps/Pro.xcassets; sourceTree = "<group>"; };
            """
        var pbxproj = Self.pbxproj(
            appSettings:
                "INFOPLIST_FILE = Apps/Lite-Info.plist; SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 15.0; ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;",
            extraTargets: ", T2", extraObjects: objects)
        if case .text(let text) = pbxproj {
            pbxproj = .text(
                text.replacingOccurrences(
                    of: "buildConfigurationList = L2; };", with: "buildConfigurationList = L2; buildPhases = (R1); };"
                )
                .replacingOccurrences(of: "name = App;", with: "name = Lite;"))
        }
        let iphoneOnly = ExampleFile.text(
            "{\"images\":[{\"idiom\":\"iphone\",\"size\":\"60x60\",\"scale\":\"2x\",\"filename\":\"i.png\"},{\"idiom\":\"ios-marketing\",\"size\":\"1024x1024\",\"scale\":\"1x\",\"filename\":\"m.png\"}]}"
        )
        var files: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": pbxproj, "Apps/Lite-Info.plist": Self.appPlist, "Apps/Pro-Info.plist": Self.appPlist,
        ]
        for catalog in ["Apps/Lite.xcassets", "Apps/Pro.xcassets"] {
            files[catalog + "/AppIcon.appiconset/Contents.json"] = iphoneOnly
            files[catalog + "/AppIcon.appiconset/i.png"] = .png(PNGSpec(width: 120, height: 120))
            files[catalog + "/AppIcon.appiconset/m.png"] = .png(PNGSpec(width: 1024, height: 1024))
        }
        let tree = try TempTree(files)
        let result = try runCommand(Repo.binary, ["check", "--format", "json", tree.path])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = (root["projects"] as? [[String: Any]] ?? []).compactMap { ($0["context"] as? [String: Any])?["target"] as? String }
        #expect(Set(targets) == ["Lite", "Pro"], "one context per app")
        let missing = (root["diagnostics"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "icon.missing-required" }
            .compactMap { $0["path"] as? String }
        #expect(Set(missing) == ["Apps/Pro.xcassets/AppIcon.appiconset/Contents.json"], "only universal Pro needs iPad icons: \(missing)")
    }

    @Test func aTvOSTargetAndAWidgetBesideTheApp() throws {
        let objects = """
            		T2 = {isa = PBXNativeTarget; name = TV; productType = "com.apple.product-type.application"; buildConfigurationList = L3; };
            		L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
            		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = appletvos; INFOPLIST_FILE = TV/Info.plist; }; };
            		T3 = {isa = PBXNativeTarget; name = Widget; productType = "com.apple.product-type.app-extension"; buildConfigurationList = L4; };
            		L4 = {isa = XCConfigurationList; buildConfigurations = (C4); };
            		C4 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = Widget/Info.plist; }; };
            """
        let emptySet = ExampleFile.text("{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\"}]}")
        let (context, rules) = try check([
            "App.xcodeproj/project.pbxproj": Self.pbxproj(
                appSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;",
                extraTargets: ", T2, T3", extraObjects: objects),
            "App/Info.plist": Self.appPlist,
            "TV/Info.plist": Self.appPlist,
            "Widget/Info.plist": .text(
                "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>NSExtension</key><dict/></dict></plist>\n"),
            "Widget/Assets.xcassets/AppIcon.appiconset/Contents.json": emptySet,
            "TV/Assets.xcassets/AppIcon.appiconset/Contents.json": emptySet,
        ])
        #expect(context["target"] as? String == "App")
        #expect(rules.contains("project.not-checked App.xcodeproj/project.pbxproj"), "\(rules)")
        #expect(!rules.contains { $0.contains("Widget") && $0.hasPrefix("project.not-checked") }, "an iOS extension is judged")
        #expect(
            !rules.contains { ($0.hasPrefix("icon.missing-required") || $0.hasPrefix("icon.marketing-missing")) },
            "neither the widget's nor the TV app's AppIcon set is the app's: \(rules)")
    }
}

/// The xcconfig and condition rules on their own.
@Suite struct XcconfigResolutionTests {
    func files(_ texts: [String: String]) -> InMemoryFiles { InMemoryFiles(texts.mapValues { Array($0.utf8) }) }

    @Test func conditionsForTheDeviceSDKWinAndOthersDoNot() {
        let files = files([
            "a.xcconfig": "A = plain\nA[sdk=iphoneos*] = device\nB[sdk=iphonesimulator*] = simulator\nB = plain\nC[config=Debug] = debug\n"
        ])
        let read = XcconfigReader.read("a.xcconfig", files: files)
        let settings = ResolvedBuildSettings(levels: [read.assignments], builtins: [:], configuration: "Release")
        #expect(settings.string("A") == "device")
        #expect(settings.string("B") == "plain")
        #expect(settings.string("C") == nil)
    }

    @Test func includesThatAreMissingCircularOrOptional() {
        let files = files([
            "a.xcconfig": "#include \"b.xcconfig\"\n#include \"gone.xcconfig\"\n#include? \"maybe.xcconfig\"\nX = 1\n",
            "b.xcconfig": "#include \"a.xcconfig\"\nY = 2\n",
        ])
        let read = XcconfigReader.read("a.xcconfig", files: files)
        #expect(read.assignments.map(\.key) == ["Y", "X"])
        #expect(read.problems.map(\.message).contains("#include \"gone.xcconfig\": no such file"))
        #expect(read.problems.contains { $0.message.contains("circular") })
        #expect(!read.problems.contains { $0.message.contains("maybe") }, "#include? may be missing")
    }

    /// An xcconfig saved on Windows (or checked out with core.autocrlf) has CRLF line ends; an
    /// old Mac editor's, CR. Each line is still one setting, as Xcode reads it.
    @Test(arguments: ["\r\n", "\r"])
    func everyLineEndSeparatesSettings(_ end: String) {
        let files = files([
            "a.xcconfig": ["// shared", "#include \"b.xcconfig\"", "A = 1", "ASSETCATALOG_COMPILER_APPICON_NAME = Beta", ""].joined(
                separator: end),
            "b.xcconfig": ["B = 2", "C = 3 // three"].joined(separator: end),
        ])
        let read = XcconfigReader.read("a.xcconfig", files: files)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let settings = ResolvedBuildSettings(levels: [read.assignments], builtins: [:])
        #expect(settings.string("A") == "1" && settings.string("B") == "2" && settings.string("C") == "3")
        #expect(settings.string("ASSETCATALOG_COMPILER_APPICON_NAME") == "Beta")
    }

    /// Windows editors start a UTF-8 file with a byte-order mark; it is not part of the first key.
    @Test func aByteOrderMarkIsNotPartOfTheFirstSetting() {
        let files = InMemoryFiles(["a.xcconfig": [0xEF, 0xBB, 0xBF] + Array("ASSETCATALOG_COMPILER_APPICON_NAME = Beta\nB = 2\n".utf8)])
        let read = XcconfigReader.read("a.xcconfig", files: files)
        let settings = ResolvedBuildSettings(levels: [read.assignments], builtins: [:])
        #expect(settings.string("ASSETCATALOG_COMPILER_APPICON_NAME") == "Beta")
        #expect(settings.string("B") == "2")
    }

    /// With every .xcconfig read, xcodebuild expands a setting no level defines to nothing:
    /// `WatchIcon${BUNDLE_ID_SUFFIX}` is WatchIcon in a configuration that sets no suffix. A
    /// reference to an Xcode setting reswatch does not model stays unknown.
    @Test func anUndefinedReferenceIsEmptyWhenEverythingWasRead() {
        let settings = ResolvedBuildSettings(
            levels: [
                [
                    SettingAssignment(key: "ICON", value: "WatchIcon${BUNDLE_ID_SUFFIX}", origin: .xcodeDefault),
                    SettingAssignment(key: "SUFFIXED", value: "AppIcon$(SUFFIX)", origin: .xcodeDefault),
                    SettingAssignment(key: "SUFFIX", value: ".beta", origin: .xcodeDefault),
                    SettingAssignment(key: "MODELLED", value: "$(BUILT_PRODUCTS_DIR)/x", origin: .xcodeDefault),
                ]
            ], builtins: [:])
        #expect(settings.string("ICON") == nil, "unknown while an unread .xcconfig may define it")
        #expect(settings.stringUndefinedAsEmpty("ICON") == "WatchIcon")
        #expect(settings.stringUndefinedAsEmpty("SUFFIXED") == "AppIcon.beta")
        #expect(settings.stringUndefinedAsEmpty("MODELLED") == nil)
        #expect(settings.stringUndefinedAsEmpty("ABSENT") == nil)
    }

    @Test func unknownReferencesLeaveTheValueUnknown() {
        let settings = ResolvedBuildSettings(
            levels: [[SettingAssignment(key: "N", value: "$(UNDEFINED_THING)", origin: .xcodeDefault)]], builtins: ["TARGET_NAME": "App"])
        #expect(settings.string("N") == nil, "never guessed")
        #expect(settings.string("PRODUCT_NAME") == "App", "the default $(TARGET_NAME)")
        let cycle = ResolvedBuildSettings(
            levels: [
                [
                    SettingAssignment(key: "A", value: "$(B)", origin: .xcodeDefault),
                    SettingAssignment(key: "B", value: "$(A)", origin: .xcodeDefault),
                ]
            ],
            builtins: [:])
        #expect(cycle.string("A") == nil)
    }
}

/// Projects without a checked-in .xcodeproj.
@Suite struct XcodeGenProjectTests {
    func check(_ files: [String: ExampleFile]) throws -> (context: [String: Any], rules: [String]) {
        let tree = try TempTree(files)
        let result = try runCommand(Repo.binary, ["check", "--format", "json", tree.path])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let context = try #require((root["projects"] as? [[String: Any]])?.first?["context"] as? [String: Any])
        return (context, (root["diagnostics"] as? [[String: Any]] ?? []).map { "\($0["rule"]!) \($0["path"]!)" })
    }

    @Test func anXcodeGenProjectIsReadWithItsPresets() throws {
        let (context, rules) = try check([
            "project.yml": .text(
                """
                name: Sample
                options:
                  deploymentTarget:
                    iOS: "16.0"
                targets:
                  Sample:
                    type: application
                    platform: iOS
                    info:
                      path: Sources/Info.plist
                    settings:
                      base:
                        ASSETCATALOG_COMPILER_APPICON_NAME: Brand
                  SampleTV:
                    type: application
                    platform: tvOS
                """),
            "Sources/Info.plist": BuildSettingsTests.appPlist,
        ])
        #expect(context["target"] as? String == "Sample")
        #expect(context["devices"] as? [String] == ["iphone", "ipad"], "XcodeGen's iOS preset is TARGETED_DEVICE_FAMILY 1,2")
        #expect(context["deployment_target"] as? String == "16.0")
        #expect(context["app_icon"] as? String == "Brand")
        #expect(context["info_plist"] as? String == "Sources/Info.plist")
        let origins = try #require(context["origins"] as? [String: String])
        #expect(origins["app-icon"]?.hasPrefix("project.yml:13") == true, "\(origins)")
        #expect((context["notes"] as? [String])?.first?.contains("XcodeGen") == true)
        #expect(rules.contains("project.not-checked project.yml"), "the tvOS target is named, on the file that declares it: \(rules)")
    }

    /// targetTemplates as XcodeGen merges them: the template's type and settings under the
    /// target's own (which win), lists appended, templates of templates, `${target_name}`.
    @Test func targetTemplatesAreMergedUnderTheTarget() throws {
        let (context, _) = try check([
            "project.yml": .text(
                """
                name: Sample
                targetTemplates:
                  Base:
                    platform: iOS
                    settings:
                      base:
                        ASSETCATALOG_COMPILER_APPICON_NAME: ${target_name}Icon
                        IPHONEOS_DEPLOYMENT_TARGET: "15.0"
                  App:
                    templates: [Base]
                    type: application
                    settings:
                      base:
                        IPHONEOS_DEPLOYMENT_TARGET: "16.0"
                targets:
                  Sample:
                    templates: [App]
                    info:
                      path: Sources/Info.plist
                    settings:
                      base:
                        IPHONEOS_DEPLOYMENT_TARGET: "17.0"
                """),
            "Sources/Info.plist": BuildSettingsTests.appPlist,
        ])
        #expect(context["target"] as? String == "Sample", "the type comes from the template")
        #expect(context["deployment_target"] as? String == "17.0", "the target's own setting wins")
        #expect(context["app_icon"] as? String == "SampleIcon", "${target_name} in a template")
    }

    /// Templates that each name ten others, many levels deep (or themselves): bounded, no hang.
    @Test func hostileTemplatesAreBounded() throws {
        var yaml = "name: Hostile\ntargetTemplates:\n"
        for i in 0..<10 {
            let others = (0..<10).map { "T\($0)" }.joined(separator: ", ")
            yaml += "  T\(i):\n    templates: [\(others)]\n    type: application\n    sources: [S\(i)]\n"
        }
        yaml += "targets:\n  App:\n    templates: [T0, T1, T2, T3, T4, T5, T6, T7, T8, T9]\n    platform: iOS\n"
        let read = XcodeGenReader.read("project.yml", files: InMemoryFiles(["project.yml": Array(yaml.utf8)]))
        let project = try #require(try? read.get().0)
        let app = try #require(project.targets.first { $0.name == "App" })
        #expect(app.productType == "com.apple.product-type.application")
        // Each template use appends its one source folder: at most 64 uses, not 10^8.
        #expect(app.resources.count <= 64, "\(app.resources.count) template uses")
    }

    /// A Tuist manifest reswatch cannot take a project from is said, on the manifest (the
    /// readable ones: TuistProjectTests).
    @Test func aTuistManifestWithoutAProjectCallIsSaid() throws {
        let (_, rules) = try check(["Project.swift": .text("import ProjectDescription\n"), "App/Info.plist": BuildSettingsTests.appPlist])
        #expect(rules.contains("project.pbxproj-invalid Project.swift"), "\(rules)")
    }
}
