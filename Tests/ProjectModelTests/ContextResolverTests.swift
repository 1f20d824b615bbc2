import Foundation
import ProjectModel
import RuleEngine
import RuleKit
import SystemCalls
import TestSupport
import Testing

@Suite struct ContextResolverTests {
    static let pbxproj = """
        // !$*UTF8*$!
        {
        	archiveVersion = 1;
        	objectVersion = 46;
        	objects = {
        		P1 = {isa = PBXProject; buildConfigurationList = L1; targets = (T1, T2); };
        		L1 = {isa = XCConfigurationList; buildConfigurations = (C1, C2); };
        		C1 = {isa = XCBuildConfiguration; name = Debug; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 9.0; }; };
        		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 9.0; SDKROOT = iphoneos; }; };
        		T1 = {isa = PBXNativeTarget; name = Widget; productType = "com.apple.product-type.app-extension"; buildConfigurationList = L2; };
        		L2 = {isa = XCConfigurationList; buildConfigurations = (C3); };
        		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { TARGETED_DEVICE_FAMILY = 2; }; };
        		T2 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L3; };
        		L3 = {isa = XCConfigurationList; buildConfigurations = (C4); };
        		C4 = {isa = XCBuildConfiguration; name = Release; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 8.0; TARGETED_DEVICE_FAMILY = 1; ASSETCATALOG_COMPILER_APPICON_NAME = Brand; INFOPLIST_FILE = "App/App-Info.plist"; }; };
        	};
        	rootObject = P1;
        }
        """

    static func plist(_ body: String) -> ExampleFile {
        .text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n")
    }

    func context(_ files: [String: ExampleFile], project: String) throws -> ProjectContext {
        let tree = try TempTree(files)
        let engine = tree.engine()
        return try #require(
            engine.projectContexts.first { $0.directory == project }, "projects: \(engine.projectContexts.map(\.directory))")
    }

    @Test func defaultsWhenNothingSaysOtherwise() throws {
        let c = try context(["Proj/Info.plist": Self.plist("<key>CFBundleName</key><string>x</string>")], project: "Proj")
        #expect(c.devices == [.iphone, .ipad] && c.deploymentTarget == OSVersion(12, 0) && c.distribution == .appStore)
        #expect(c.sources["devices"] == .defaults && c.sources["deployment-target"] == .defaults)
    }

    @Test func infoPlistIsTheThirdSource() throws {
        let c = try context(
            [
                "Proj/Info.plist": Self.plist(
                    "<key>UIDeviceFamily</key><array><integer>2</integer></array><key>MinimumOSVersion</key><string>10.3</string><key>CFBundleIconName</key><string>Icons</string>"
                )
            ], project: "Proj")
        #expect(c.devices == [.ipad] && c.deploymentTarget == OSVersion("10.3")! && c.appIconName == "Icons")
        #expect(c.sources["devices"] == .infoPlist && c.sources["deployment-target"] == .infoPlist && c.sources["app-icon"] == .infoPlist)
    }

    @Test func pbxprojBeatsInfoPlistAndPicksTheAppTarget() throws {
        let c = try context(
            [
                "Proj/App.xcodeproj/project.pbxproj": .text(Self.pbxproj),
                "Proj/App/App-Info.plist": Self.plist(
                    "<key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array><key>MinimumOSVersion</key><string>11.0</string>"
                ),
            ], project: "Proj")
        #expect(c.devices == [.iphone], "the application target's TARGETED_DEVICE_FAMILY, not the widget's")
        #expect(c.deploymentTarget == OSVersion(8, 0) && c.appIconName == "Brand" && c.infoPlist == "Proj/App/App-Info.plist")
        #expect(c.sources["devices"] == .pbxproj && c.sources["deployment-target"] == .pbxproj)
    }

    static func pbx(targets: [(name: String, type: String, settings: String, extra: String)]) -> ExampleFile {
        var objects =
            "P1 = {isa = PBXProject; buildConfigurationList = L0; targets = (\(targets.indices.map { "T\($0)" }.joined(separator: ", "))); };\n"
        objects +=
            "L0 = {isa = XCConfigurationList; buildConfigurations = (C0); };\nC0 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };\n"
        for (i, t) in targets.enumerated() {
            objects +=
                "T\(i) = {isa = PBXNativeTarget; name = \(t.name); productType = \"\(t.type)\"; buildConfigurationList = L\(i + 1); };\n"
            objects += "L\(i + 1) = {isa = XCConfigurationList; buildConfigurations = (C\(i + 1)); };\n"
            objects += "C\(i + 1) = {isa = XCBuildConfiguration; name = Release; \(t.extra) buildSettings = { \(t.settings) }; };\n"
        }
        return .text("// !$*UTF8*$!\n{ archiveVersion = 1; objects = {\n\(objects)}; rootObject = P1; }\n")
    }

    @Test func watchAppTargetsAreNotTheIOSApp() throws {
        let c = try context(
            [
                "P/P.xcodeproj/project.pbxproj": Self.pbx(targets: [
                    (
                        "Watch", "com.apple.product-type.application",
                        "SDKROOT = watchos; TARGETED_DEVICE_FAMILY = 4; WATCHOS_DEPLOYMENT_TARGET = 9.0;", ""
                    ),
                    (
                        "App", "com.apple.product-type.application",
                        "SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = 2; IPHONEOS_DEPLOYMENT_TARGET = 14.0;", ""
                    ),
                ])
            ], project: "P")
        #expect(c.devices == [.ipad] && c.deploymentTarget == OSVersion(14, 0))
    }

    @Test func unsetDeviceFamilyIsXcodesDefaultUnlessAnXcconfigMaySetIt() throws {
        let plain = try context(
            [
                "P/P.xcodeproj/project.pbxproj": Self.pbx(targets: [
                    ("App", "com.apple.product-type.application", "SDKROOT = iphoneos;", "")
                ])
            ], project: "P")
        #expect(plain.devices == [.iphone] && plain.sources["devices"] == .pbxproj)
        let xcconfig = try context(
            [
                "P/P.xcodeproj/project.pbxproj": Self.pbx(targets: [
                    (
                        "App", "com.apple.product-type.application", "SDKROOT = iphoneos;",
                        "baseConfigurationReferenceRelativePath = App.xcconfig;"
                    )
                ])
            ], project: "P")
        #expect(xcconfig.devices == [.iphone, .ipad] && xcconfig.sources["devices"] == .defaults)
    }

    @Test func reswatchYamlBeatsEverything() throws {
        let c = try context(
            [
                "Proj/App.xcodeproj/project.pbxproj": .text(Self.pbxproj),
                "Proj/.reswatch.yaml": .text(
                    "devices: [ipad]\ndeployment-target: \"6.1\"\ndistribution: ad-hoc\napp-icon: Other\nignore: [\"Legacy/**\"]\nrules:\n  disable: [icon.legacy-slot]\n  severity: {icon.transparent: error}\n"
                ),
            ], project: "Proj")
        #expect(c.devices == [.ipad] && c.deploymentTarget == OSVersion(6, 1) && c.distribution == .adHoc && c.appIconName == "Other")
        #expect(c.disabledRules == ["icon.legacy-slot"] && c.severityOverrides["icon.transparent"] == .error && c.ignore == ["Legacy/**"])
        #expect(c.sources["devices"] == .config && c.sources["distribution"] == .config)
    }

    @Test func monorepoProjectsEachGetTheirOwnContext() throws {
        let tree = try TempTree([
            "apps/one/One.xcodeproj/project.pbxproj": .text(Self.pbxproj),
            "apps/one/One/Assets.xcassets/AppIcon.appiconset/Contents.json": .text("{\"images\":[]}"),
            "apps/two/.reswatch.yaml": .text("devices: [ipad]\ndeployment-target: \"15.0\"\n"),
            "apps/two/Assets.xcassets/AppIcon.appiconset/Contents.json": .text("{\"images\":[]}"),
            "tools/Info.plist": Self.plist("<key>MinimumOSVersion</key><string>13.0</string>"),
        ])
        let engine = tree.engine()
        let byDir = Dictionary(uniqueKeysWithValues: engine.projectContexts.map { ($0.directory, $0) })
        #expect(byDir["apps/one"]?.deploymentTarget == OSVersion(8, 0))
        #expect(byDir["apps/two"]?.devices == [.ipad])
        #expect(byDir["tools"]?.deploymentTarget == OSVersion(13, 0))
        // Diagnostics carry their own project: one's pbxproj names an icon set "Brand" it does not
        // have; two's AppIcon set is its primary set and is empty.
        #expect(
            engine.diagnostics.contains {
                $0.rule == "icon.set-missing" && $0.project == "apps/one" && $0.path.hasPrefix("apps/one/")
                    && $0.path.hasSuffix("project.pbxproj")
                    && $0.line != nil
            }, "shown at the line of the setting that names the set: \(engine.diagnostics)")
        #expect(engine.diagnostics.contains { $0.rule == "icon.marketing-missing" && $0.project == "apps/two" })
        #expect(!engine.diagnostics.contains { $0.rule == "icon.marketing-missing" && $0.project == "apps/one" })
    }

    @Test func xcodeLayoutRootsTheProjectAtTheXcodeprojNotTheInfoPlist() throws {
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": .text(Self.pbxproj),
            "App/Info.plist": Self.plist(""),
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text("{\"images\":[]}"),
        ])
        let engine = tree.engine()
        #expect(engine.projectContexts.map(\.directory) == [""])
        #expect(engine.diagnostics.allSatisfy { $0.project == "" })
    }

    @Test func brokenConfigIsReportedNotFatal() throws {
        let tree = try TempTree(["P/.reswatch.yaml": .text("devices: [iphone, android]\n"), "P/Info.plist": Self.plist("")])
        let engine = tree.engine()
        let c = try #require(engine.projectContexts.first { $0.directory == "P" })
        let problem = try #require(engine.diagnostics.first { $0.rule == "config.invalid" }, "\(engine.diagnostics)")
        #expect(problem.project == "P" && problem.path == "P/.reswatch.yaml")
        #expect(problem.line == 1 && problem.message.contains("android"))
        #expect(c.devices == [.iphone, .ipad], "falls back to the next source")
        #expect(c.problems.isEmpty, "the context keeps no copy of what the engine reports")
    }
}

@Suite struct ParserTests {
    @Test func plistErrorsCarryTheLine() {
        let bad = "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>A</key>\n<strin>x</string>\n</dict></plist>"
        guard case .failure(let e) = PropertyListReader.parse(Array(bad.utf8)) else { Issue.record("should fail"); return }
        #expect(e.line == 5)
        guard case .failure(let empty) = PropertyListReader.parse([]) else { Issue.record("should fail"); return }
        #expect(empty.description.contains("empty"))
    }

    @Test func plistFormats() throws {
        let xml = "<?xml version=\"1.0\"?><plist><dict><key>A</key><true/><key>N</key><integer>3</integer></dict></plist>"
        let (v, format) = try PropertyListReader.parse(Array(xml.utf8)).get()
        #expect(format == .xml && v["A"] == .boolean(true) && v["N"] == .integer(3))
        let binary = try PropertyListSerialization.data(fromPropertyList: ["K": "v"], format: .binary, options: 0)
        let (b, bf) = try PropertyListReader.parse(Array(binary)).get()
        #expect(bf == .binary && b["K"]?.string == "v")
        guard case .failure(.notADictionary) = PropertyListReader.parse(Array("<plist><array/></plist>".utf8)) else {
            Issue.record("array top"); return
        }
    }

    @Test func contentsJSONErrorsCarryTheLine() {
        guard case .failure(let e) = AssetContentsReader.parse(Array("{\n  \"images\" : [\n    { \"idiom\" : 3 }\n  ]\n}".utf8)) else {
            Issue.record("should fail"); return
        }
        #expect(e.line == 3 && e.description.contains("idiom"))
        guard case .failure(let j) = AssetContentsReader.parse(Array("{\n\"images\": [\n,\n]}".utf8)) else {
            Issue.record("should fail"); return
        }
        #expect(j.line != nil)
        guard case .failure(.empty) = AssetContentsReader.parse([]) else { Issue.record("empty"); return }
    }

    @Test func contentsEntriesKnowTheirLines() throws {
        let text =
            "{\n  \"images\" : [\n    {\n      \"idiom\" : \"iphone\", \"size\" : \"60x60\", \"scale\" : \"2x\"\n    },\n    { \"idiom\" : \"ipad\", \"size\" : \"83.5x83.5\", \"scale\" : \"2x\", \"appearances\" : [ { \"appearance\" : \"luminosity\", \"value\" : \"dark\" } ] }\n  ]\n}"
        let c = try AssetContentsReader.parse(Array(text.utf8)).get()
        #expect(c.images.map(\.line) == [3, 6])
        #expect(c.images[1].points?.width == 83.5 && c.images[1].scaleFactor == 2 && c.images[1].appearances == ["luminosity:dark"])
    }

    @Test func versions() {
        #expect(OSVersion("6.1")! < OSVersion("7.0")!)
        #expect(OSVersion("12")! == OSVersion("12.0")!)
        #expect(OSVersion("9.3.5")! > OSVersion("9.3")!)
        #expect(OSVersion("x") == nil && OSVersion("") == nil)
    }
}

/// Each app target of a project gets its own context, from one reading of the project: the
/// pbxproj is read (and parsed) once for all of them.
@Suite struct ProjectReadOnceTests {
    final class CountingFiles: ProjectFileAccess, @unchecked Sendable {
        let files: InMemoryFiles
        var reads: [String: Int] = [:]
        init(_ files: InMemoryFiles) { self.files = files }
        func read(_ path: String) -> Result<[UInt8], SystemError> {
            reads[path, default: 0] += 1
            return files.read(path)
        }
        func list(_ directory: String) -> Result<[DirectoryEntry], SystemError> { files.list(directory) }
    }

    @Test func twoAppsAndTheirContextsFromOneReading() throws {
        guard
            case .text(let pbxproj) = ContextResolverTests.pbx(targets: [
                ("One", "com.apple.product-type.application", "SDKROOT = iphoneos; INFOPLIST_FILE = One/Info.plist;", ""),
                ("Two", "com.apple.product-type.application", "SDKROOT = iphoneos; INFOPLIST_FILE = Two/Info.plist;", ""),
            ])
        else { Issue.record("not text"); return }
        let files = CountingFiles(InMemoryFiles(["P/P.xcodeproj/project.pbxproj": Array(pbxproj.utf8)]))
        let contexts = ContextResolver.resolveAll(projectDirectory: "P", files: files)
        #expect(Set(contexts.compactMap(\.targetName)) == ["One", "Two"])
        #expect(files.reads["P/P.xcodeproj/project.pbxproj"] == 1, "\(files.reads)")
        // Each context still has its own app's settings.
        let infoPlists = contexts.map { $0.appSettings?.string("INFOPLIST_FILE") ?? "-" }
        #expect(Set(infoPlists) == ["One/Info.plist", "Two/Info.plist"], "\(infoPlists)")
    }
}
