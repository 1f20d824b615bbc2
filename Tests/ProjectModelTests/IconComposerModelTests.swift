import Foundation
import ProjectModel
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// How the project model reads which `.icon` bundles a target compiles, what icon.json holds, and
/// whether an SVG layer is well-formed.
@Suite struct IconComposerModelTests {
    static func context(_ files: [String: ExampleFile]) throws -> ProjectContext {
        let engine = try TempTree(files).engine()
        return try #require(engine.projectContexts.first { $0.directory == "" })
    }

    static func pbxproj(objects: String, targetExtras: String) -> ExampleFile {
        .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1); };
            		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; \(targetExtras) };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; }; };
            		\(objects)
            	};
            	rootObject = P1;
            }
            """)
    }

    @Test func aSynchronizedFolderCompilesItsIconsExceptThoseItLeavesOutOrTypesAsFolders() throws {
        let project = Self.pbxproj(
            objects: """
                S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (E1, E2); explicitFolders = (Plain.icon, ); path = App; sourceTree = "<group>"; };
                E1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Skipped.icon, ); target = T1; };
                E2 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (AppIcon.icon, ); target = T9; };
                """, targetExtras: "fileSystemSynchronizedGroups = (S1);")
        let context = try Self.context(["App.xcodeproj/project.pbxproj": project, "App/AppIcon.icon/icon.json": .text("{}")])
        let icons = try #require(context.iconBundles)
        #expect(icons.compiles("App/AppIcon.icon"), "another target's exception does not leave it out of App")
        #expect(icons.verdict(for: "App/Skipped.icon") == .notMember)
        guard case .notAnIcon(let why) = icons.verdict(for: "App/Plain.icon") else {
            Issue.record("explicitFolders makes it a plain folder")
            return
        }
        #expect(why.contains("explicitFolders"))
        #expect(icons.verdict(for: "Other/AppIcon.icon") == .notMember)
    }

    @Test func resourcesOfTheIconsFilesOneByOneAreAnExpandedBundle() throws {
        let project = Self.pbxproj(
            objects: """
                F1 = {isa = PBXFileReference; lastKnownFileType = text.json; path = AppIcon.icon/icon.json; sourceTree = "<group>"; };
                F2 = {isa = PBXFileReference; lastKnownFileType = image.svg; path = "AppIcon.icon/Assets/Front Layer.svg"; sourceTree = "<group>"; };
                F3 = {isa = PBXFileReference; path = Other.icon; sourceTree = "<group>"; };
                B1 = {isa = PBXBuildFile; fileRef = F1; };
                B2 = {isa = PBXBuildFile; fileRef = F2; };
                B3 = {isa = PBXBuildFile; fileRef = F3; };
                R1 = {isa = PBXResourcesBuildPhase; files = (B1, B2, B3); };
                """, targetExtras: "buildPhases = (R1);")
        let icons = try #require(try Self.context(["App.xcodeproj/project.pbxproj": project]).iconBundles)
        guard case .notAnIcon(let why) = icons.verdict(for: "AppIcon.icon") else {
            Issue.record("\(icons.verdict(for: "AppIcon.icon"))")
            return
        }
        #expect(why.contains("one by one"))
        #expect(icons.references.filter { $0.path == "AppIcon.icon" }.count == 1, "one reference for the bundle, not one per file")
        #expect(icons.compiles("Other.icon"), "no file type: Xcode infers it from the extension")
    }

    @Test func xcodeGenSourcesCompileIconsUnlessFileTypesSayOtherwise() throws {
        let spec = "name: App\ntargets:\n  App:\n    type: application\n    platform: iOS\n    sources: [App]\n"
        var icons = try #require(try Self.context(["project.yml": .text(spec)]).iconBundles)
        #expect(icons.compiles("App/AppIcon.icon"), "XcodeGen 2.45.1+ types .icon as a resource file")
        let off = "options:\n  fileTypes:\n    icon:\n      file: false\n" + spec
        icons = try #require(try Self.context(["project.yml": .text(off)]).iconBundles)
        guard case .notAnIcon(let why) = icons.verdict(for: "App/AppIcon.icon") else {
            Issue.record("file: false expands the bundle")
            return
        }
        #expect(why.contains("options.fileTypes.icon.file: false"))
    }

    @Test func theDocumentGivesItsAssetNamesAndItsDepartures() throws {
        let json = """
            {"groups":[{"layers":[{"image-name":"a.png","name":"a","opacity":2},
              {"image-name-specializations":[{"value":"b.svg"},{"appearance":"sepia","value":"c.svg"}],"name":"b"}],
              "shadow":{"kind":"neutral","opacity":0.5},"blur-material":null}],
             "fill":{"solid":"display-p3:1,0,0"},"supported-platforms":{"squares":"shared"},"extra":1}
            """
        let document = try IconComposerDocument.parse(Array(json.utf8)).get()
        #expect(document.assetNames.map(\.name) == ["a.png", "b.svg", "c.svg"])
        let notes = document.notes.map { "\($0.keyPath): \($0.message)" }
        #expect(notes.contains("extra: unknown key 'extra'"), "\(notes)")
        #expect(notes.contains { $0.hasPrefix("fill.solid: ") }, "three components for display-p3: \(notes)")
        #expect(notes.contains { $0.hasPrefix("groups[0].layers[0].opacity: 2 is outside") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("groups[0].layers[1].image-name-specializations[1].appearance") }, "\(notes)")
        #expect(!notes.contains { $0.contains("blur-material") }, "null blur is what real files write: \(notes)")
        #expect(notes.count == 4, "\(notes)")
    }

    @Test func structuralFailuresAreNotSchemaNotes() {
        #expect(throws: IconComposerDocument.Failure.noGroups) { try IconComposerDocument.parse(Array("{}".utf8)).get() }
        #expect(throws: IconComposerDocument.Failure.notAnObject) { try IconComposerDocument.parse(Array("[1]".utf8)).get() }
        #expect(throws: IconComposerDocument.Failure.groupsNotAnArray) {
            try IconComposerDocument.parse(Array("{\"groups\":3}".utf8)).get()
        }
        let five = "{\"groups\":[" + Array(repeating: "{\"layers\":[]}", count: 5).joined(separator: ",") + "],\"supported-platforms\":{}}"
        let notes = (try? IconComposerDocument.parse(Array(five.utf8)).get())?.notes.map(\.message) ?? []
        #expect(notes.first?.hasPrefix("5 groups") == true, "\(notes)")
    }

    @Test(
        arguments: [
            ("<svg><g/></svg>", nil),
            (
                "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE svg [ <!ENTITY a \"b\"> ]>\n<svg:svg a='1' b=\"x>y\"><![CDATA[<x>]]></svg:svg>\n",
                nil
            ),
            ("", "empty file"),
            ("<svg><g></svg>", "</svg> closes <g>"),
            ("<svg></svg><svg/>", "a second top element"),
            ("<html></html>", "the top element is <html>, not <svg>"),
            ("<svg a=b/>", "an attribute value without quotes"),
            ("<svg>\n<g>\n", "<g> is never closed"),
            ("junk<svg/>", "text outside the top element"),
        ] as [(String, String?)])
    func svgWellFormedness(_ text: String, _ problem: String?) {
        #expect(XMLWellFormedness.check(Array(text.utf8), root: "svg")?.message == problem)
    }

    @Test func deepNestingIsRefusedNotFollowed() {
        let deep = String(repeating: "<g>", count: 100_000)
        let problem = XMLWellFormedness.check(Array(("<svg>" + deep).utf8), root: "svg")
        #expect(problem?.message == "elements nested deeper than \(XMLWellFormedness.maximumDepth)")
    }
}
