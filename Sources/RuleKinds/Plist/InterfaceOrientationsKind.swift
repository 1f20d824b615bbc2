import Findings
import RuleKit

/// `plist.orientations`: known orientation values, and all four for iPad multitasking.
package struct InterfaceOrientationsKind: RuleKind {
    package static let name = "interface-orientations"
    package static let summary = "Checks UISupportedInterfaceOrientations values and the iPad multitasking rule."
    package static let subjects: Set<SubjectKind> = [.infoPlist, .project]

    package static let orientations = RuleInfo(
        id: "plist.orientations", severity: .error, code: "ITMS-90474",
        summary:
            "Unknown UISupportedInterfaceOrientations values, or an iPad app with multitasking that does not support all four orientations.",
        rationale:
            "App Store Connect: \"Invalid Bundle. iPad Multitasking support requires these orientations\" (ITMS-90474); unknown values are ignored by iOS.",
        fix:
            "List all four UIInterfaceOrientation values (for ~ipad) and support resizing; UIRequiresFullScreen, the old opt-out, is deprecated and no longer opts out with the iOS 27 SDK (TN3192)."
    )
    package static let rules = [orientations]

    static let known: Set<String> = [
        "UIInterfaceOrientationPortrait", "UIInterfaceOrientationPortraitUpsideDown",
        "UIInterfaceOrientationLandscapeLeft", "UIInterfaceOrientationLandscapeRight",
    ]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        // Any Info.plist as its target ships it (INFOPLIST_KEY_… included); an app's generated
        // whole is judged on its project (AppInfoPlist).
        let app = AppInfoPlist.of(subject, in: context)
        guard let dict = subject.kind == .project ? app?.dict : context.effectiveInfoPlist(subject.path) else { return }
        func report(_ message: String, key: String? = nil) {
            if let app {
                app.report(Self.orientations, in: context, key: key, message: message)
            } else {
                context.report(Self.orientations, path: subject.path, key: key, message: message)
            }
        }
        for key in ["UISupportedInterfaceOrientations", "UISupportedInterfaceOrientations~ipad", "UISupportedInterfaceOrientations~iphone"]
        {
            guard let value = dict[key] else { continue }
            let name = app?.name(of: key) ?? key
            guard let list = value.array?.compactMap(\.string), list.count == value.array?.count else {
                report("\(name) is not an array of strings", key: key)
                continue
            }
            for v in list where !Self.known.contains(v) {
                report("\(name) has the unknown value \"\(v)\"", key: key)
            }
        }
        // iPad multitasking needs all four orientations unless the app requires full screen.
        // Watch apps and extensions have no iPad multitasking.
        let notAnIOSApp = dict["WKApplication"] != nil || dict["WKWatchKitApp"] != nil || dict["NSExtension"] != nil
        guard !notAnIOSApp, context.project.devices.contains(.ipad), dict["UIRequiresFullScreen"]?.bool != true,
            let list = (dict["UISupportedInterfaceOrientations~ipad"] ?? dict["UISupportedInterfaceOrientations"])?.array?.compactMap(
                \.string)
        else { return }
        let missing = Self.known.subtracting(list).sorted()
        if !missing.isEmpty {
            let key =
                dict["UISupportedInterfaceOrientations~ipad"] != nil
                ? "UISupportedInterfaceOrientations~ipad" : "UISupportedInterfaceOrientations"
            // A value Xcode generates is named by its setting.
            let setting = app.map { $0.name(of: key) }.flatMap { $0 == key ? nil : " in \($0)" } ?? ""
            report(
                "the app runs on iPad with multitasking but does not support \(missing.joined(separator: ", "))\(setting) (iPad because \(context.project.devicesBecause))",
                key: key)
        }
    }

    package static let examples: [RuleExample] = {
        let all =
            "<array><string>UIInterfaceOrientationPortrait</string><string>UIInterfaceOrientationPortraitUpsideDown</string><string>UIInterfaceOrientationLandscapeLeft</string><string>UIInterfaceOrientationLandscapeRight</string></array>"
        let portrait = "<array><string>UIInterfaceOrientationPortrait</string></array>"
        return [
            RuleExample(
                "a universal app with all four orientations",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone, ipad]"),
                    "App/Info.plist": ExampleTrees.plist("<key>UISupportedInterfaceOrientations</key>\(all)"),
                ], passes: ["plist.orientations"]),
            RuleExample(
                "an iPhone-only app in portrait",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone]"),
                    "App/Info.plist": ExampleTrees.plist("<key>UISupportedInterfaceOrientations</key>\(portrait)"),
                ], passes: ["plist.orientations"]),
            RuleExample(
                "an iPad app in portrait only, with multitasking",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[ipad]"),
                    "App/Info.plist": ExampleTrees.plist("<key>UISupportedInterfaceOrientations</key>\(portrait)"),
                ], triggers: ["plist.orientations"]),
            RuleExample(
                "an iPad app in portrait only that requires full screen",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[ipad]"),
                    "App/Info.plist": ExampleTrees.plist(
                        "<key>UIRequiresFullScreen</key><true/><key>UISupportedInterfaceOrientations</key>\(portrait)"),
                ], passes: ["plist.orientations"]),
            RuleExample(
                "a misspelt orientation",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(devices: "[iphone]"),
                    "App/Info.plist": ExampleTrees.plist(
                        "<key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationPotrait</string></array>"),
                ], triggers: ["plist.orientations"]),
            RuleExample(
                "a universal app whose generated Info.plist supports portrait only on iPad",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; TARGETED_DEVICE_FAMILY = \"1,2\"; INFOPLIST_KEY_UISupportedInterfaceOrientations_iPad = UIInterfaceOrientationPortrait;"
                    )
                ], triggers: ["plist.orientations"]),
        ]
    }()
}
