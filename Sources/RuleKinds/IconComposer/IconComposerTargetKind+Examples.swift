import ImageFacts
import ProjectModel
import RuleKit

extension IconComposerTargetKind {
    /// How an example project wires `App/AppIcon.icon` to its app target.
    enum Wiring {
        /// A Copy Bundle Resources entry with this file type (nil: none written).
        case resource(String?)
        /// `App/` is a synchronized folder of the target; `explicitFolders` may list the bundle.
        case synchronized(asPlainFolder: Bool)
        /// The bundle is on disk only.
        case none
    }

    /// An Xcode project (at the root) with the iOS app `App` building with `appIcon`, the `.icon`
    /// wired as `wiring`, and a tvOS app `TV` when `tvIcon` is set.
    static func project(appIcon: String = "AppIcon", wiring: Wiring, tvIcon: String? = nil) -> ExampleFile {
        var objects: [String] = []
        var phases = ""
        var groups = ""
        switch wiring {
        case .resource(let type):
            objects.append(
                "F1 = {isa = PBXFileReference; \(type.map { "lastKnownFileType = \($0); " } ?? "")path = App/AppIcon.icon; sourceTree = \"<group>\"; };"
            )
            objects.append("B1 = {isa = PBXBuildFile; fileRef = F1; };")
            // The app's asset catalog is bundled too (a shadowed set would otherwise ship in nothing).
            objects.append(
                "F2 = {isa = PBXFileReference; lastKnownFileType = folder.assetcatalog; path = App/Assets.xcassets; sourceTree = \"<group>\"; };"
            )
            objects.append("B2 = {isa = PBXBuildFile; fileRef = F2; };")
            objects.append("R1 = {isa = PBXResourcesBuildPhase; files = (B1, B2); };")
            phases = "buildPhases = (R1); "
        case .synchronized(let plain):
            let folders = plain ? "explicitFolders = (AppIcon.icon, ); " : ""
            objects.append("S1 = {isa = PBXFileSystemSynchronizedRootGroup; \(folders)path = App; sourceTree = \"<group>\"; };")
            groups = "fileSystemSynchronizedGroups = (S1); "
        case .none:
            break
        }
        var targets = "T1"
        if let tvIcon {
            targets += ", T2"
            objects.append(
                "F2 = {isa = PBXFileReference; lastKnownFileType = folder.iconcomposer.icon; path = TV/TVIcon.icon; sourceTree = \"<group>\"; };"
            )
            objects.append("B2 = {isa = PBXBuildFile; fileRef = F2; };")
            objects.append("R2 = {isa = PBXResourcesBuildPhase; files = (B2); };")
            objects.append(
                "T2 = {isa = PBXNativeTarget; name = TV; productType = \"com.apple.product-type.application\"; buildConfigurationList = L3; buildPhases = (R2); };"
            )
            objects.append("L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };")
            objects.append(
                "C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { ASSETCATALOG_COMPILER_APPICON_NAME = \(tvIcon); SDKROOT = appletvos; INFOPLIST_FILE = TV/Info.plist; }; };"
            )
        }
        return .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (\(targets)); };
            		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; \(phases)\(groups)};
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { ASSETCATALOG_COMPILER_APPICON_NAME = \(appIcon); INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = "1,2"; IPHONEOS_DEPLOYMENT_TARGET = 18.0; }; };
            		\(objects.joined(separator: "\n\t\t"))
            	};
            	rootObject = P1;
            }
            """)
    }

    /// An Xcode 26 app whose icon is `App/AppIcon.icon`, wired as `wiring`.
    static func app(_ wiring: Wiring, appIcon: String = "AppIcon") -> [String: ExampleFile] {
        var files = IconComposerExamples.bundle()
        files["App.xcodeproj/project.pbxproj"] = project(appIcon: appIcon, wiring: wiring)
        files["App/Info.plist"] = ExampleTrees.plist("<key>CFBundleName</key><string>App</string>")
        return files
    }

    static let ids = rules.map(\.id) + ["icon.set-missing", "icon.marketing-missing", "icon.missing-required", "plist.icon-name-missing"]

    package static let examples: [RuleExample] = {
        var shadowed = app(.resource(IconBundleMembership.fileType))
        shadowed["App/Assets.xcassets/AppIcon.appiconset/Contents.json"] = ExampleTrees.contents([("iphone", "60x60", "2x", nil)])
        // A shadowed set's App Store image with alpha and WebP data under a .png name: the set is
        // ignored when the .icon is present (rules_apple), so neither ships.
        var shadowedImages = app(.resource(IconBundleMembership.fileType))
        shadowedImages["App/Assets.xcassets/AppIcon.appiconset/Contents.json"] = ExampleTrees.contents([
            ("ios-marketing", "1024x1024", "1x", "store.png"), ("mac", "16x16", "1x", "16-mac.png"),
        ])
        shadowedImages["App/Assets.xcassets/AppIcon.appiconset/store.png"] = .png(PNGSpec(width: 1024, height: 1024, color: .rgba))
        shadowedImages["App/Assets.xcassets/AppIcon.appiconset/16-mac.png"] = .bytes(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8))
        var tv = app(.resource(IconBundleMembership.fileType))
        tv["App.xcodeproj/project.pbxproj"] = project(wiring: .resource(IconBundleMembership.fileType), tvIcon: "TVIcon")
        for (k, v) in IconComposerExamples.bundle(at: "TV/TVIcon.icon") { tv[k] = v }
        tv["TV/Info.plist"] = ExampleTrees.plist("<key>CFBundleName</key><string>TV</string>")
        return [
            RuleExample(
                "the icon is a folder.iconcomposer.icon resource of the app", files: app(.resource(IconBundleMembership.fileType)),
                passes: ids),
            RuleExample("the icon is inside a synchronized folder", files: app(.synchronized(asPlainFolder: false)), passes: ids),
            RuleExample(
                "the .icon is on disk but in no build phase", files: app(.none), triggers: ["iconcomposer.not-in-target"],
                passes: ["icon.set-missing"]),
            RuleExample(
                "the .icon is added as a plain folder", files: app(.resource("folder")), triggers: ["iconcomposer.not-in-target"],
                passes: ["icon.set-missing"]),
            RuleExample(
                "the synchronized folder lists the .icon in explicitFolders", files: app(.synchronized(asPlainFolder: true)),
                triggers: ["iconcomposer.not-in-target"]),
            RuleExample(
                "a same-name .appiconset beside the compiled .icon", files: shadowed, triggers: ["iconcomposer.shadowed-appiconset"],
                passes: ["icon.missing-required", "icon.marketing-missing"]),
            RuleExample(
                "a shadowed .appiconset's images do not ship: no App Store rule judges them", files: shadowedImages,
                triggers: ["iconcomposer.shadowed-appiconset"], passes: ["icon.marketing-alpha", "image.not-png"]),
            RuleExample("a tvOS app whose icon is a .icon", files: tv, triggers: ["iconcomposer.unsupported-platform"]),
        ]
    }()
}
