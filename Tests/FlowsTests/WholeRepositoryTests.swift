import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// `reswatch check` at the root of a whole repository (issue 58), through the real binary: what no
/// product of the app ships (vendored folders, Git LFS pointers, a Mac app's or a framework's
/// project, a test bundle's snapshots, a folder of C sources) is not judged as the app's, and what
/// was left out is said once per kind.
@Suite struct WholeRepositoryTests {
    static let plist =
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleName</key><string>X</string><key>CFBundleIconFile</key><string>Icon.png</string></dict></plist>"#

    /// A project with the given native targets: (name, product type, build settings).
    static func project(_ targets: [(String, String, String)], aggregate: String? = nil) -> String {
        var objects = ""
        var ids: [String] = []
        for (i, (name, type, settings)) in targets.enumerated() {
            ids.append("T\(i)")
            objects += """
                		T\(i) = {isa = PBXNativeTarget; name = "\(name)"; productType = "\(type)"; buildConfigurationList = L\(i); };
                		L\(i) = {isa = XCConfigurationList; buildConfigurations = (C\(i)); };
                		C\(i) = {isa = XCBuildConfiguration; name = Release; buildSettings = { \(settings) }; };

                """
        }
        if let aggregate {
            ids.append("TA")
            objects += "\t\tTA = {isa = PBXAggregateTarget; name = \"\(aggregate)\"; buildConfigurationList = LA; };\n"
            objects += "\t\tLA = {isa = XCConfigurationList; buildConfigurations = (CA); };\n"
            objects += "\t\tCA = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };\n"
        }
        return """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = LP; mainGroup = G0; targets = (\(ids.joined(separator: ", "))); };
            		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
            		LP = {isa = XCConfigurationList; buildConfigurations = (CP); };
            		CP = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            \(objects)	};
            	rootObject = P1;
            }
            """
    }

    static let app = "com.apple.product-type.application"
    static let lfs =
        "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 48213\n"

    /// A Flutter-shaped macOS project (a Mac app, a Mac extension, an aggregate target) whose
    /// Info.plist has no iOS keys and whose icon set holds WebP data: nothing of it is judged with
    /// iOS rules, and one finding names its targets.
    @Test func aMacOnlyProjectIsSaidOnceAndNotJudgedWithIOSRules() throws {
        let tree = try TempTree([
            "macos/Runner.xcodeproj/project.pbxproj": .text(
                Self.project(
                    [
                        (
                            "Runner", Self.app,
                            "SDKROOT = macosx; INFOPLIST_FILE = Runner/Info.plist; ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;"
                        ),
                        (
                            "ShareExtension", "com.apple.product-type.app-extension",
                            "SDKROOT = macosx; INFOPLIST_FILE = ShareExtension/Info.plist;"
                        ),
                    ], aggregate: "Flutter Assemble")),
            "macos/Runner/Info.plist": .text(Self.plist),
            "macos/Runner/AppDelegate.swift": .text("let d = UserDefaults.standard\n"),
            "macos/Runner/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                #"{"images":[{"idiom":"mac","size":"512x512","scale":"2x","filename":"1024-mac.png"}]}"#),
            "macos/Runner/Assets.xcassets/AppIcon.appiconset/1024-mac.png": .bytes(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)),
        ])
        let (result, diagnostics) = checkDiagnostics([tree.path])
        let rules = diagnostics.compactMap { $0["rule"] as? String }
        #expect(rules == ["project.not-checked"], "\(diagnostics)")
        let message = diagnostics.first?["message"] as? String ?? ""
        #expect(
            message.hasPrefix(
                "Runner builds no iOS app (its targets: Runner (macOS application), ShareExtension (macOS app extension), Flutter Assemble"),
            "\(message)")
        #expect(result.status == 0)
        let text = checkInProcess([tree.path])
        #expect(text.stdout.contains("macos  builds no iOS app"), "\(text.stdout)")
        #expect(!text.stdout.contains("no problems"), "\(text.stdout)")
    }

    /// An .xcodeproj whose targets are a framework and its tests: no launch screen, bundle name or
    /// privacy manifest of an app is asked of its Info.plist.
    @Test func aFrameworkOnlyProjectIsNoApp() throws {
        let tree = try TempTree([
            "Kit/Kit.xcodeproj/project.pbxproj": .text(
                Self.project([
                    ("Kit", "com.apple.product-type.framework", "SDKROOT = iphoneos; INFOPLIST_FILE = Kit/Info.plist;"),
                    ("KitTests", "com.apple.product-type.bundle.unit-test", "SDKROOT = iphoneos; INFOPLIST_FILE = KitTests/Info.plist;"),
                ])),
            "Kit/Kit/Info.plist": .text(Self.plist),
            "Kit/Kit/Kit.swift": .text("let d = UserDefaults.standard\n"),
        ])
        let (_, diagnostics) = checkDiagnostics([tree.path])
        let rules = diagnostics.compactMap { $0["rule"] as? String }
        #expect(rules == ["project.not-checked"], "\(diagnostics)")
        let message = diagnostics.first?["message"] as? String
        #expect(message?.contains("Kit (framework), KitTests (unit-test bundle)") == true, "\(diagnostics)")
    }

    /// The app is judged; its test bundle's snapshot images (named like icons) and a Mac target's
    /// folder beside it are not; Carthage checkouts, a prebuilt framework with a CgBI PNG, a
    /// docset's Info.plist, node_modules and Git LFS pointers are left out and said once per kind.
    @Test func onlyWhatTheAppShipsIsJudgedAndTheRestIsSaidOncePerKind() throws {
        var files: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": .text(
                Self.project([
                    (
                        "App", Self.app,
                        "SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 17.0;"
                    ),
                    ("AppTests", "com.apple.product-type.bundle.unit-test", "SDKROOT = iphoneos; INFOPLIST_FILE = AppTests/Info.plist;"),
                    ("Mac", Self.app, "SDKROOT = macosx; INFOPLIST_FILE = Mac/Info.plist;"),
                ])),
            "App/Info.plist": .text(Self.plist),
            "App/Icon.png": .png(PNGSpec(width: 57, height: 57)),
            "AppTests/Info.plist": .text(Self.plist),
            "AppTests/__Snapshots__/icon-name-gauge.png": .bytes(Array("not a png".utf8)),
            "Mac/Info.plist": .text(Self.plist),
            "Mac/Assets.xcassets/Logo.imageset/logo.png": .bytes(Array("not a png".utf8)),
            "Carthage/Checkouts/Lib/Demo/Demo.xcodeproj/project.pbxproj": .text(
                Self.project([("Demo", Self.app, "SDKROOT = iphoneos; INFOPLIST_FILE = Demo/Info.plist;")])),
            "Carthage/Checkouts/Lib/Demo/Demo/Info.plist": .text(Self.plist),
            "Vendor/Lib.framework/Info.plist": .text(Self.plist),
            "Vendor/Lib.framework/icon.png": .png(PNGSpec(width: 10, height: 10, cgbi: true)),
            "Vendor/Other.xcframework/ios-arm64/Other.framework/logo@2x.png": .png(PNGSpec(width: 10, height: 10, cgbi: true)),
            "docs/Lib.docset/Contents/Info.plist": .text(Self.plist),
            "node_modules/pkg/template/ios/X.imageset/x.png": .bytes(Array("not a png".utf8)),
        ]
        for i in 0..<5 { files["App/Assets.xcassets/Shot\(i).imageset/shot.png"] = .text(Self.lfs) }
        for i in 0..<5 {
            files["App/Assets.xcassets/Shot\(i).imageset/Contents.json"] = .text(
                #"{"images":[{"idiom":"universal","filename":"shot.png"}],"info":{"version":1,"author":"xcode"}}"#)
        }
        let tree = try TempTree(files)
        let (result, diagnostics) = checkDiagnostics([tree.path])
        let found = diagnostics.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        // Nothing of the test bundle, the Mac target or the vendored folders is judged.
        for path in ["AppTests/", "Mac/", "Carthage/", "Vendor/", "docs/", "node_modules/"] {
            #expect(!found.contains { $0.contains(" " + path) && !$0.hasPrefix("project.") }, "\(path): \(found)")
        }
        #expect(!found.contains { $0.hasPrefix("image.not-png") || $0.hasPrefix("image.cgbi") }, "\(found)")
        // Said once per kind: Carthage, the prebuilt frameworks (two), the docset, node_modules.
        let leftOut = diagnostics.filter { $0["rule"] as? String == "project.left-out" }.compactMap { $0["message"] as? String }
        #expect(leftOut.contains { $0.hasPrefix("the Carthage folder is not judged as the app's") }, "\(leftOut)")
        #expect(
            leftOut.contains {
                $0.hasPrefix("2 prebuilt frameworks are not judged") && $0.contains("Vendor/Lib.framework, Vendor/Other.xcframework")
            }, "\(leftOut)")
        #expect(leftOut.contains { $0.hasPrefix("a documentation set is not judged") }, "\(leftOut)")
        #expect(leftOut.contains { $0.hasPrefix("the npm packages folder is not judged") }, "\(leftOut)")
        // Five LFS pointers: one finding that counts them.
        let pointers = leftOut.filter { $0.contains("Git LFS pointer") }
        #expect(pointers.count == 1 && pointers[0].hasPrefix("5 files are Git LFS pointers"), "\(pointers)")
        #expect(leftOut.count == 5, "\(leftOut)")
        // The test bundle and the Mac app are said as not checked; the app itself is judged.
        let notChecked = diagnostics.filter { $0["rule"] as? String == "project.not-checked" }.compactMap { $0["message"] as? String }
        #expect(notChecked.contains { $0.hasPrefix("Mac (macOS application): not checked") }, "\(notChecked)")
        #expect(found.contains("launch.missing App/Info.plist") || found.contains { $0.hasPrefix("icon.") }, "\(found)")
        #expect(result.status == 1)

        // --all-files judges the vendored folders as before.
        let (_, all) = checkDiagnostics([tree.path]) { $0.allFiles = true }
        let allFound = all.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        #expect(allFound.contains("image.cgbi Vendor/Lib.framework/icon.png"), "\(allFound)")
        #expect(!all.contains { ($0["message"] as? String ?? "").contains("not judged as the app's") }, "\(allFound)")
    }

    /// An asset catalog no target bundles (a leftover beside the one the app's build phase lists)
    /// ships in no product: its sets are not judged, and that is said once; the bundled one is.
    @Test func aCatalogNoTargetBundlesIsSaidNotJudged() throws {
        let pbxproj = """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = LP; mainGroup = G0; targets = (T1); };
            		G0 = {isa = PBXGroup; children = (F1); sourceTree = "<group>"; };
            		F1 = {isa = PBXFileReference; lastKnownFileType = folder.assetcatalog; path = App/Assets.xcassets; sourceTree = "<group>"; };
            		B1 = {isa = PBXBuildFile; fileRef = F1; };
            		R1 = {isa = PBXResourcesBuildPhase; files = (B1); };
            		LP = {isa = XCConfigurationList; buildConfigurations = (CP); };
            		CP = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L1; buildPhases = (R1); };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; }; };
            	};
            	rootObject = P1;
            }
            """
        let set = #"{"images":[{"idiom":"universal","filename":"a.png"}],"info":{"version":1,"author":"xcode"}}"#
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": .text(pbxproj),
            "App/Info.plist": .text(Self.plist),
            "App/Assets.xcassets/Logo.imageset/Contents.json": .text(set),
            "App/Assets.xcassets/Logo.imageset/a.png": .bytes(Array("not a png".utf8)),
            "Old/Assets.xcassets/Logo.imageset/Contents.json": .text(set),
            "Old/Assets.xcassets/Logo.imageset/a.png": .bytes(Array("not a png".utf8)),
        ])
        let (_, diagnostics) = checkDiagnostics([tree.path])
        let found = diagnostics.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        #expect(found.contains("image.not-png App/Assets.xcassets/Logo.imageset/a.png"), "\(found)")
        #expect(!found.contains { $0.contains(" Old/") && !$0.hasPrefix("project.") }, "\(found)")
        let said = diagnostics.filter { $0["rule"] as? String == "project.left-out" }.compactMap { $0["message"] as? String }
        #expect(
            said == [
                "Old/Assets.xcassets is in no target's Copy Bundle Resources phase or synchronized folder: no product ships it, so its sets are not judged"
            ], "\(said)")
    }

    /// Kiwix's shape: an XcodeGen app whose type, destinations and sources come from a
    /// `targetTemplates` entry, whose Info.plist is generated and merged with the project's
    /// `INFOPLIST_KEY_*` settings (a launch screen among them), beside an extension's Info.plist
    /// whose target is gone from project.yml.
    @Test func anXcodeGenTargetTemplateIsReadAndALeftoverExtensionIsSaid() throws {
        let spec = """
            name: Kiwix
            options:
              deploymentTarget:
                iOS: 17.6
                macOS: 14.6
            settings:
              base:
                GENERATE_INFOPLIST_FILE: YES
                INFOPLIST_KEY_UILaunchScreen_Generation: YES
                INFOPLIST_KEY_CFBundleDisplayName: Kiwix
            targetTemplates:
              ApplicationTemplate:
                type: application
                supportedDestinations: [iOS, macOS]
                sources:
                  - path: App
            targets:
              Kiwix:
                templates:
                  - ApplicationTemplate
                settings:
                  base:
                    INFOPLIST_FILE: Support/Info.plist
                sources:
                  - path: Support
              UnitTests:
                type: bundle.unit-test
                supportedDestinations: [iOS, macOS]
                settings:
                  GENERATE_INFOPLIST_FILE: YES
                sources:
                  - path: Tests
            """
        let bare =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleVersion</key><string>1</string></dict></plist>"#
        let widget =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict></dict></plist>"#
        let tree = try TempTree([
            "project.yml": .text(spec),
            "Support/Info.plist": .text(bare),
            "App/App.swift": .text("@main struct KiwixApp {}\n"),
            "Widgets/Info.plist": .text(widget),
        ])
        let (result, diagnostics) = checkDiagnostics([tree.path])
        let found = diagnostics.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        // The template's type makes Kiwix an iOS app: its generated Info.plist has a launch screen.
        #expect(!found.contains { $0.hasPrefix("launch.missing") || $0.hasPrefix("plist.bundle-name-missing") }, "\(found)")
        #expect(!found.contains { $0.hasPrefix("plist.extension-keys") }, "the leftover widget is no extension of the app: \(found)")
        let said = diagnostics.filter { $0["rule"] as? String == "project.left-out" }.compactMap { $0["message"] as? String }
        #expect(
            said.contains { $0.hasPrefix("Widgets/Info.plist is an extension's Info.plist that no target of the project names") }, "\(said)"
        )
        let report = checkInProcess([tree.path])
        #expect(report.stdout.contains("target Kiwix"), "\(report.stdout)")
        #expect(result.status == 0 || result.status == 1)
    }

    /// element-x-ios's shape: a Swift package in the repository (the app's local package) with
    /// its own inspector app project inside: the package's demo, said once and not judged; the
    /// repository's root Package.swift does not make the app a package's demo.
    @Test func aProjectInsideASwiftPackageIsItsDemo() throws {
        let app = Self.project([("App", Self.app, "SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist;")])
        let tree = try TempTree([
            "Package.swift": .text("// swift-tools-version:5.9\n"),
            "App.xcodeproj/project.pbxproj": .text(app),
            "App/Info.plist": .text(Self.plist),
            "compound/Package.swift": .text("// swift-tools-version:5.9\n"),
            "compound/Inspector/Inspector.xcodeproj/project.pbxproj": .text(
                Self.project([("Inspector", Self.app, "SDKROOT = iphoneos; INFOPLIST_FILE = Resources/Info.plist;")])),
            "compound/Inspector/Resources/Info.plist": .text(Self.plist),
            "compound/Inspector/Resources/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"i.png"}]}"#),
            "compound/Inspector/Resources/Assets.xcassets/AppIcon.appiconset/i.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba)),
        ])
        let (_, diagnostics) = checkDiagnostics([tree.path])
        let inspector = diagnostics.filter { ($0["path"] as? String ?? "").hasPrefix("compound/") }
        #expect(inspector.map { $0["rule"] as? String } == ["project.not-checked"], "\(inspector)")
        #expect(
            (inspector.first?["message"] as? String)?.hasPrefix("Inspector lies inside the Swift package compound (Package.swift)") == true)
        #expect(
            diagnostics.contains { $0["rule"] as? String == "launch.missing" && $0["path"] as? String == "App/Info.plist" },
            "the app is judged")
    }

    /// A folder of C sources beside the app's project (no Info.plist, no .reswatch.yaml) is no
    /// app: no "the app has no privacy manifest".
    @Test func aFolderOfSourcesIsNoApp() throws {
        let tree = try TempTree([
            "prboom/d_main.c": .text("#include <sys/stat.h>\nstruct stat st;\nint r = stat(path, &st);\n"),
            "prboom/Assets.xcassets/Logo.imageset/Contents.json": .text(#"{"images":[],"info":{"version":1,"author":"xcode"}}"#),
        ])
        let (_, diagnostics) = checkDiagnostics([tree.path])
        #expect(!diagnostics.contains { ($0["rule"] as? String ?? "").hasPrefix("privacy.") }, "\(diagnostics)")
    }
}
