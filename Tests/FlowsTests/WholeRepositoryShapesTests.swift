import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// More shapes of whole repositories (issue 58, causes 5, 7 and 14): a React Native or Flutter
/// root whose `ios/` holds the project, icon sets only a configuration that does not ship builds,
/// and a generated Info.plist's launch storyboard named with its extension.
@Suite struct WholeRepositoryShapesTests {
    static let plist =
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleName</key><string>X</string></dict></plist>"#
    static let marketing =
        #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"i.png"}],"info":{"version":1,"author":"xcode"}}"#

    /// The JavaScript side's assets (a template `X.imageset` outside any catalog), fastlane's
    /// artwork and the Android icons lie outside every project: said once, not judged. Inside
    /// the project, an alternate icon's preview `default-icon@2x.png` is no launch image, and
    /// `INFOPLIST_KEY_UILaunchStoryboardName = Splash.storyboard` is the extension mistake.
    @Test func aReactNativeRootIsJudgedOnlyWhereTheIOSProjectIs() throws {
        let settings =
            "SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 15.0; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_UILaunchStoryboardName = Splash.storyboard;"
        let tree = try TempTree([
            "ios/App.xcodeproj/project.pbxproj": .text(WholeRepositoryTests.project([("App", WholeRepositoryTests.app, settings)])),
            "ios/App/Info.plist": .text(Self.plist),
            "ios/App/Splash.storyboard": .text("<document/>"),
            "ios/App/AltIcons/default-icon@2x.png": .png(PNGSpec(width: 120, height: 120)),
            "ios/App/AltIcons/Default-568h.png": .png(PNGSpec(width: 640, height: 1136)),
            "assets/brand/ios/Logo.imageset/logo.png": .png(PNGSpec(width: 20, height: 20)),
            "fastlane/metadata/iTunesArtwork@2x.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba)),
            "android/app/src/main/res/mipmap-hdpi/ic_launcher.png": .bytes(Array("not a png".utf8)),
        ])
        let (_, diagnostics) = checkDiagnostics([tree.path])
        let found = diagnostics.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        for path in ["assets/", "fastlane/", "android/"] {
            #expect(!found.contains { $0.contains(" " + path) && !$0.hasPrefix("project.left-out") }, "\(path): \(found)")
        }
        let outside = diagnostics.filter { ($0["message"] as? String ?? "").hasPrefix("the files outside every project of the tree (ios)") }
        #expect(outside.count == 1 && outside.first?["rule"] as? String == "project.left-out", "\(found)")
        #expect(!found.contains("launch.bad-name ios/App/AltIcons/default-icon@2x.png"), "\(found)")
        #expect(found.contains("launch.bad-name ios/App/AltIcons/Default-568h.png"), "a real launch image name is still judged: \(found)")
        let splash = diagnostics.first { $0["rule"] as? String == "launch.storyboard-missing" }
        #expect(
            (splash?["message"] as? String)
                == "INFOPLIST_KEY_UILaunchStoryboardName is \"Splash.storyboard\": give the base name without the extension",
            "\(found)")

        // --all-files judges the root's files as before.
        let (_, all) = checkDiagnostics([tree.path]) { $0.allFiles = true }
        #expect(all.contains { $0["rule"] as? String == "icon.itunesartwork" }, "\(all.map { $0["rule"] ?? "" })")
    }

    /// Sets that only Debug or an Enterprise configuration builds, and one no configuration
    /// names, never reach App Store Connect: `icon.not-shipped`, no ITMS-90717 (issue 58, cause 7).
    @Test func setsTheShippingConfigurationDoesNotBuildAreNotJudgedForTheAppStore() throws {
        let common = "SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 15.0;"
        var pbxproj = WholeRepositoryTests.project([
            ("App", WholeRepositoryTests.app, common + " ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;")
        ])
        pbxproj = pbxproj.replacingOccurrences(of: "buildConfigurations = (C0); };", with: "buildConfigurations = (C0, CD, CE); };")
            .replacingOccurrences(
                of: "\t};\n\trootObject",
                with: """
                    		CD = {isa = XCBuildConfiguration; name = Debug; buildSettings = { \(common) ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon-Debug; }; };
                    		CE = {isa = XCBuildConfiguration; name = Enterprise; buildSettings = { \(common) ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon-Enterprise; }; };
                    	};
                    	rootObject
                    """)
        var files: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": .text(pbxproj), "App/Info.plist": .text(Self.plist),
        ]
        for (name, alpha) in [("AppIcon", false), ("AppIcon-Debug", true), ("AppIcon-Enterprise", true), ("AppIcon-Old", true)] {
            files["App/Assets.xcassets/\(name).appiconset/Contents.json"] = .text(Self.marketing)
            files["App/Assets.xcassets/\(name).appiconset/i.png"] = .png(PNGSpec(width: 1024, height: 1024, color: alpha ? .rgba : .rgb))
        }
        let tree = try TempTree(files)
        let (_, diagnostics) = checkDiagnostics([tree.path])
        let found = diagnostics.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        #expect(!found.contains { $0.hasPrefix("icon.marketing-alpha") }, "\(found)")
        for name in ["AppIcon-Debug", "AppIcon-Enterprise", "AppIcon-Old"] {
            #expect(found.contains("icon.not-shipped App/Assets.xcassets/\(name).appiconset/Contents.json"), "\(name): \(found)")
        }
        let debug = diagnostics.first { ($0["path"] as? String ?? "").contains("AppIcon-Debug") }?["message"] as? String ?? ""
        #expect(
            debug.hasPrefix("AppIcon-Debug.appiconset: only Debug of App builds with it; Release (the configuration that ships"), "\(debug)"
        )
    }

    /// An XcodeGen app whose own code uses no required-reason API, linking the repository's
    /// package that does (issue 58, cause 14: a miss): the package's code is in the app's binary.
    @Test func aLinkedPackageOfTheRepositoryCountsAsTheAppsCode() throws {
        let yml = """
            name: App
            packages:
              Store:
                path: Packages/Store
            targets:
              App:
                type: application
                platform: iOS
                info:
                  path: App/Info.plist
                sources: [App]
                dependencies:
                  - package: Store
            """
        var files: [String: ExampleFile] = [
            "project.yml": .text(yml), "App/Info.plist": .text(Self.plist), "App/App.swift": .text("struct A {}\n"),
            "Packages/Store/Package.swift": .text("// swift-tools-version:5.9\n"),
            "Packages/Store/Sources/Store/Store.swift": .text("import Foundation\nlet d = UserDefaults.standard\n"),
        ]
        let tree = try TempTree(files)
        let (_, diagnostics) = checkDiagnostics([tree.path])
        let missing = diagnostics.filter { $0["rule"] as? String == "privacy.manifest-missing" }
        #expect(missing.map { $0["path"] as? String } == ["Packages/Store/Sources/Store/Store.swift"], "\(diagnostics)")
        #expect((missing.first?["message"] as? String)?.hasPrefix("App has no privacy manifest") == true)

        // Not linked: the package is another product's, not the app's.
        files["project.yml"] = .text(yml.replacingOccurrences(of: "\n    dependencies:\n      - package: Store", with: ""))
        let unlinked = try TempTree(files)
        let (_, none) = checkDiagnostics([unlinked.path])
        #expect(!none.contains { $0["rule"] as? String == "privacy.manifest-missing" }, "\(none)")
    }

    /// Loose icons and launch images dropped from the project's Copy Bundle Resources phase (the
    /// app now takes its icon from a catalog) ship in no product: said once, not judged (issue 58,
    /// cause 5). A file the project bundles under another case of its name is bundled (APFS).
    @Test func imagesNoTargetBundlesAreSaidOnceAndNotJudged() throws {
        let pbxproj = """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = LP; mainGroup = G0; targets = (T0); };
            		G0 = {isa = PBXGroup; children = (F1, F2); sourceTree = "<group>"; };
            		F1 = {isa = PBXFileReference; lastKnownFileType = folder.assetcatalog; path = App/Assets.xcassets; sourceTree = "<group>"; };
            		F2 = {isa = PBXFileReference; lastKnownFileType = image.png; path = App/Default.png; sourceTree = "<group>"; };
            		B1 = {isa = PBXBuildFile; fileRef = F1; };
            		B2 = {isa = PBXBuildFile; fileRef = F2; };
            		R1 = {isa = PBXResourcesBuildPhase; files = (B1, B2); };
            		LP = {isa = XCConfigurationList; buildConfigurations = (CP); };
            		CP = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T0 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L0; buildPhases = (R1); };
            		L0 = {isa = XCConfigurationList; buildConfigurations = (C0); };
            		C0 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 6.0; }; };
            	};
            	rootObject = P1;
            }
            """
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": .text(pbxproj), "App/Info.plist": .text(Self.plist),
            "App/default.png": .png(PNGSpec(width: 300, height: 480)),
            "App/Default@2x.png": .png(PNGSpec(width: 600, height: 900)),
            "App/Icon-72.png": .png(PNGSpec(width: 50, height: 50, color: .rgba)),
            "App/iTunesArtwork@2x.png": .png(PNGSpec(width: 300, height: 300, color: .rgba)),
        ])
        let (_, diagnostics) = checkDiagnostics([tree.path])
        let found = diagnostics.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        for name in ["Default@2x.png", "Icon-72.png", "iTunesArtwork@2x.png"] {
            #expect(!found.contains { $0.hasSuffix("App/" + name) && !$0.hasPrefix("project.left-out") }, "\(name): \(found)")
        }
        let said = diagnostics.filter { ($0["message"] as? String ?? "").hasPrefix("3 images outside the asset catalogs in no target's") }
        #expect(said.count == 1, "\(found)")
        #expect(found.contains("launch.bad-name App/default.png"), "the bundled Default.png is judged: \(found)")
    }
}
