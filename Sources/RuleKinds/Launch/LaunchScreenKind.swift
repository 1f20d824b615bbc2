import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// `launch.missing`, `launch.storyboard-missing`, `launch.images-deprecated`, `launch.images-only`:
/// the app's Info.plist names a launch screen that exists (any of the four keys the iOS 27 SDK
/// counts), or the app has launch images.
package struct LaunchScreenKind: RuleKind {
    package static let name = "launch-screen"
    package static let summary = "Checks that the app has a launch screen: a storyboard/xib it names, UILaunchScreen, or launch images."
    package static let subjects: Set<SubjectKind> = [.infoPlist, .project]

    package static let missing = RuleInfo(
        id: "launch.missing", severity: .error,
        summary: "No launch storyboard/xib, no UILaunchScreen and no launch image at all.",
        rationale:
            "\"Every app must provide at least one launch image\" (App Programming Guide, App-Related Resources); without a launch screen iOS runs the app letterboxed and App Store Connect rejects it.",
        fix:
            "Add a launch storyboard and name it in UILaunchStoryboardName (Xcode: target → General → Launch Screen File), or add UILaunchScreen."
    )
    package static let storyboardMissing = RuleInfo(
        id: "launch.storyboard-missing", severity: .error, code: "ITMS-90475",
        summary: "UILaunchStoryboardName names no .storyboard/.xib in the project, or includes the extension.",
        rationale:
            "The launch screen is looked up by base name; a wrong name or one with \".storyboard\" shows a black screen and fails validation.",
        fix:
            "Set UILaunchStoryboardName to the file's base name (LaunchScreen, not LaunchScreen.storyboard) and make sure the file is in the project."
    )
    package static let imagesDeprecated = RuleInfo(
        id: "launch.images-deprecated", severity: .info,
        summary: "Launch images while the deployment target is iOS 13 or later.",
        rationale:
            "Since iOS 13 (April 2020 App Store rule) apps must use a launch storyboard; launch images are ignored on supported devices.",
        fix: "Replace the launch images with a launch storyboard and delete them.")
    package static let iphone5Missing = RuleInfo(
        id: "launch.iphone5-missing", severity: .error, code: "ITMS-90096",
        summary: "An iPhone app with launch images but no launch storyboard and no {320, 568} (640x1136) launch image.",
        rationale:
            "App Store Connect: \"Your binary is not optimized for iPhone 5\" (ITMS-90096); without a 568 pt launch image the app runs letterboxed.",
        fix: "Add a launch storyboard (preferred), or a Default-568h@2x.png of 640x1136.")
    package static let landscapeCatalog = RuleInfo(
        id: "launch.landscape-asset-catalog", severity: .warning,
        summary: "A landscape-only iPhone app whose launch images come from an asset catalog.",
        rationale:
            "TN2244: asset catalogs mark iPhone launch images Portrait, so a landscape-only app finds none at launch and shows a blank screen.",
        fix: "Use a launch storyboard, or loose launch images named in UILaunchImages with UILaunchImageOrientation set to Landscape.")
    package static let rules = [missing, storyboardMissing, imagesDeprecated, iphone5Missing, landscapeCatalog, imagesOnly]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        // The app's own Info.plist only: extensions and watch apps have no launch screen.
        // The Info.plist the app ships: the file with what Xcode generates from build settings.
        // An app whose Info.plist Xcode generates whole is judged on its project (AppInfoPlist).
        guard let app = AppInfoPlist.of(subject, in: context), app.dict["NSExtension"] == nil, app.dict["WKApplication"] == nil,
            app.dict["WKWatchKitApp"] == nil
        else { return }
        let (file, dict) = (app.file, app.dict)
        let interfaceNames = Set(context.subjects(.interfaceFile).map { BaseName.of(RelativePath.name($0.path)) })
        var hasStoryboard = false
        // A value Xcode generates is named by its setting (issue 58: INFOPLIST_KEY_… =
        // "Splash.storyboard" is as wrong as the same in the file).
        var names: [(String, String)] = []
        for key in ["UILaunchStoryboardName", "UILaunchStoryboardName~iphone", "UILaunchStoryboardName~ipad"] {
            guard let name = dict[key]?.string, !name.contains("$(") else { continue }
            names.append((file[key]?.string == name ? key : GeneratedInfoPlist.settingName(of: key), name))
        }
        for (key, name) in names {
            if name.hasSuffix(".storyboard") || name.hasSuffix(".xib") || name.hasSuffix(".storyboardc") || name.hasSuffix(".nib") {
                app.report(Self.storyboardMissing, in: context, message: "\(key) is \"\(name)\": give the base name without the extension")
                hasStoryboard = true
            } else if interfaceNames.contains(name) {
                hasStoryboard = true
            } else if !name.isEmpty {
                app.report(
                    Self.storyboardMissing, in: context,
                    message: "\(key) names \"\(name)\", but the project has no \(name).storyboard or \(name).xib")
                hasStoryboard = true
            }
        }
        if Self.pluralLaunchScreens(dict, interfaceNames: interfaceNames, path: app.path, context: context) { hasStoryboard = true }
        let launchImages = Self.launchImages(dict, context)
        let declaresImages = ["UILaunchImages", "UILaunchImageFile", "UILaunchImageFile~ipad", "UILaunchImages~ipad"].contains {
            dict[$0] != nil
        }
        // A generated Info.plist gets its launch screen from build settings (INFOPLIST_KEY_UILaunch…).
        // A generated Info.plist whose settings were not all read may get a launch screen from them.
        let unknown = context.project.infoPlistGenerated && context.project.buildSettingsIncomplete
        if !hasStoryboard, !declaresImages, !unknown,
            dict["UILaunchScreen"] == nil, dict["UILaunchScreen~iphone"] == nil, dict["UILaunchScreen~ipad"] == nil, launchImages.isEmpty
        {
            app.report(Self.missing, in: context, message: "the app has no launch storyboard, no UILaunchScreen and no launch image")
        }
        let usesImages = !hasStoryboard && !launchImages.isEmpty && dict["UILaunchScreen"] == nil
        let hasScreen = ["UILaunchScreen", "UILaunchScreen~iphone", "UILaunchScreen~ipad"].contains { dict[$0] != nil }
        if !hasStoryboard, !hasScreen, !unknown, !launchImages.isEmpty || declaresImages {
            app.report(
                Self.imagesOnly, in: context,
                message:
                    "the app's only launch screen is launch images: built with the iOS 27 SDK (required for uploads from April 2027) it needs UILaunchStoryboardName, UILaunchStoryboards, UILaunchScreen or UILaunchScreens",
                related: Array(launchImages.prefix(5)))
        }
        if usesImages, context.project.devices.contains(.iphone), !Self.hasTallImage(dict, launchImages, context) {
            app.report(
                Self.iphone5Missing, in: context, message: "the app uses launch images but none is 640x1136 (-568h@2x or {320, 568})"
            )
        }
        let orientations = dict["UISupportedInterfaceOrientations"]?.array?.compactMap(\.string) ?? []
        if usesImages, context.project.devices == [.iphone], !orientations.isEmpty, orientations.allSatisfy({ $0.contains("Landscape") }),
            let set = launchImages.first(where: { $0.hasSuffix(".launchimage") })
        {
            context.report(
                Self.landscapeCatalog, path: set,
                message: "a landscape-only iPhone app takes its launch images from \(RelativePath.name(set)); iOS will find none at launch")
        }
        if !launchImages.isEmpty, context.project.deploymentTarget >= OSVersion(13, 0) {
            context.report(
                Self.imagesDeprecated, path: launchImages[0],
                message: "launch images are ignored from iOS 13 on; the deployment target is \(context.project.deploymentTarget)",
                related: Array(launchImages.dropFirst().prefix(10)))
        }
    }

    /// A 568 pt tall iPhone launch image: a -568h file, a retina4 slot, or a {320, 568} entry.
    static func hasTallImage(_ plist: [String: PlistValue], _ images: [String], _ context: EvaluationContext) -> Bool {
        if (plist["UILaunchImages"]?.array ?? []).contains(where: {
            $0["UILaunchImageSize"]?.string.flatMap(LaunchSize.parse)?.height == 568
        }) {
            return true
        }
        for path in images {
            if path.hasSuffix(".launchimage") {
                if case .success(let c)? = context.assetContents(RelativePath.join(path, "Contents.json")),
                    c.images.contains(where: { $0.subtype == "retina4" && $0.filename != nil })
                {
                    return true
                }
            } else if RelativePath.name(path).contains("-568h") {
                return true
            }
        }
        return false
    }

    /// Launch-image sets and loose Default*/UILaunchImageFile* PNGs of the project.
    static func launchImages(_ plist: [String: PlistValue], _ context: EvaluationContext) -> [String] {
        let bases = Set(["Default"] + [plist["UILaunchImageFile"]?.string, plist["UILaunchImageFile~ipad"]?.string].compactMap { $0 })
        var found = context.subjects(.assetSet).map(\.path).filter { $0.hasSuffix(".launchimage") }
        for image in context.subjects(.image) {
            let name = RelativePath.name(image.path)
            let parent = RelativePath.name(RelativePath.parent(image.path))
            guard SubjectClassifier.assetSetType(ofDirectory: parent) == nil else { continue }
            if bases.contains(where: { name.hasPrefix($0) }) { found.append(image.path) }
        }
        return found.sorted()
    }

    package static let examples: [RuleExample] = {
        let plist = { (body: String) in ExampleTrees.plist(body) }
        return [
            RuleExample(
                "a storyboard named by its base name",
                files: [
                    "App/Info.plist": plist("<key>UILaunchStoryboardName</key><string>LaunchScreen</string>"),
                    "App/Base.lproj/LaunchScreen.storyboard": .text("<document/>"),
                ], passes: rules.map(\.id)),
            RuleExample(
                "UILaunchScreen instead of a storyboard", files: ["App/Info.plist": plist("<key>UILaunchScreen</key><dict/>")],
                passes: ["launch.missing"]),
            RuleExample(
                "no launch screen of any kind", files: ["App/Info.plist": plist("<key>CFBundleName</key><string>App</string>")],
                triggers: ["launch.missing"]),
            RuleExample(
                "the name includes .storyboard",
                files: [
                    "App/Info.plist": plist("<key>UILaunchStoryboardName</key><string>LaunchScreen.storyboard</string>"),
                    "App/LaunchScreen.storyboard": .text("<document/>"),
                ], triggers: ["launch.storyboard-missing"]),
            RuleExample(
                "the named storyboard does not exist",
                files: [
                    "App/Info.plist": plist("<key>UILaunchStoryboardName</key><string>Splash</string>"),
                    "App/LaunchScreen.storyboard": .text("<document/>"),
                ], triggers: ["launch.storyboard-missing"]),
            RuleExample(
                "iPhone launch images without a 568h one",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone]", target: "6.0"),
                    "App/Info.plist": plist("<key>CFBundleName</key><string>App</string>"),
                    "App/Default.png": .png(PNGSpec(width: 320, height: 480)),
                    "App/Default@2x.png": .png(PNGSpec(width: 640, height: 960)),
                ], triggers: ["launch.iphone5-missing"]),
            RuleExample(
                "iPhone launch images with a 568h one",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone]", target: "6.0"),
                    "App/Info.plist": plist("<key>CFBundleName</key><string>App</string>"),
                    "App/Default@2x.png": .png(PNGSpec(width: 640, height: 960)),
                    "App/Default-568h@2x.png": .png(PNGSpec(width: 640, height: 1136)),
                ], passes: ["launch.iphone5-missing", "launch.missing"]),
            RuleExample(
                "a landscape-only iPhone app with catalog launch images",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone]", target: "7.0"),
                    "App/Info.plist": plist(
                        "<key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationLandscapeLeft</string></array>"),
                    "App/Assets.xcassets/LaunchImage.launchimage/Contents.json": .text(
                        "{\"images\":[{\"idiom\":\"iphone\",\"subtype\":\"retina4\",\"orientation\":\"portrait\",\"scale\":\"2x\",\"filename\":\"a.png\"}]}"
                    ),
                    "App/Assets.xcassets/LaunchImage.launchimage/a.png": .png(PNGSpec(width: 640, height: 1136)),
                ], triggers: ["launch.landscape-asset-catalog"], passes: ["launch.iphone5-missing"]),
            RuleExample(
                "a generated Info.plist whose settings generate the launch screen (UILaunchScreen_Generation)",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_UILaunchScreen_Generation = YES;"
                    ), "App/Info.plist": plist("<key>CFBundleName</key><string>App</string>"),
                ], passes: rules.map(\.id)),
            RuleExample(
                "a generated Info.plist whose settings generate no launch screen and whose file names none",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES;"),
                    "App/Info.plist": plist("<key>CFBundleName</key><string>App</string>"),
                ], triggers: ["launch.missing"]),
            RuleExample(
                "INFOPLIST_KEY_UILaunchStoryboardName with the extension",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_UILaunchStoryboardName = Splash.storyboard;"
                    ), "App/Info.plist": plist("<key>CFBundleName</key><string>App</string>"),
                    "App/Splash.storyboard": .text("<document/>"),
                ], triggers: ["launch.storyboard-missing"], passes: ["launch.missing"]),
            RuleExample(
                "an app whose Info.plist Xcode generates whole, with no launch screen setting",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings: "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; ")
                ], triggers: ["launch.missing"]),
            RuleExample(
                "an app whose Info.plist Xcode generates whole, with UILaunchScreen_Generation",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; INFOPLIST_KEY_UILaunchScreen_Generation = YES;"
                    )
                ], passes: rules.map(\.id)),
            RuleExample(
                "UILaunchScreens alone is a launch screen",
                files: [
                    "App/Info.plist": plist(
                        "<key>UILaunchScreens</key><dict><key>UIDefaultLaunchScreen</key><string>main</string><key>UILaunchScreenDefinitions</key><array><dict><key>UILaunchScreenIdentifier</key><string>main</string></dict></array></dict>"
                    )
                ], passes: rules.map(\.id)),
            RuleExample(
                "UILaunchStoryboards naming a storyboard the project lacks and an undefined default",
                files: [
                    "App/Info.plist": plist(
                        "<key>UILaunchStoryboards</key><dict><key>UIDefaultLaunchStoryboard</key><string>dark</string><key>UILaunchStoryboardDefinitions</key><array><dict><key>UILaunchStoryboardIdentifier</key><string>light</string><key>UILaunchStoryboardFile</key><string>Light</string></dict></array></dict>"
                    ), "App/LaunchScreen.storyboard": .text("<document/>"),
                ], triggers: ["launch.storyboard-missing"], passes: ["launch.missing", "launch.images-only"]),
            RuleExample(
                "launch images and nothing else",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone]", target: "9.0"),
                    "App/Info.plist": plist("<key>CFBundleName</key><string>App</string>"),
                    "App/Default@2x.png": .png(PNGSpec(width: 640, height: 960)),
                    "App/Default-568h@2x.png": .png(PNGSpec(width: 640, height: 1136)),
                ], triggers: ["launch.images-only"], passes: ["launch.missing"]),
            RuleExample(
                "launch images with deployment target 15",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(target: "15.0"),
                    "App/Info.plist": plist("<key>CFBundleName</key><string>App</string>"),
                    "App/Default@2x.png": .png(PNGSpec(width: 640, height: 960)),
                ], triggers: ["launch.images-deprecated"], passes: ["launch.missing"]),
        ]
    }()
}
