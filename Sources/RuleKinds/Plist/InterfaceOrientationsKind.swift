import Findings
import RuleKit

/// `plist.orientations`: known orientation values, and all four for iPad multitasking.
public struct InterfaceOrientationsKind: RuleKind {
    public static let name = "interface-orientations"
    public static let summary = "Checks UISupportedInterfaceOrientations values and the iPad multitasking rule."
    public static let subjects: Set<SubjectKind> = [.infoPlist]

    public static let orientations = RuleInfo(
        id: "plist.orientations", severity: .error, code: "ITMS-90474",
        summary:
            "Unknown UISupportedInterfaceOrientations values, or an iPad app with multitasking that does not support all four orientations.",
        rationale:
            "App Store Connect: \"Invalid Bundle. iPad Multitasking support requires these orientations\" (ITMS-90474); unknown values are ignored by iOS.",
        fix:
            "List all four UIInterfaceOrientation values (for ~ipad) and support resizing; UIRequiresFullScreen, the old opt-out, is deprecated and no longer opts out with the iOS 27 SDK (TN3192)."
    )
    public static let rules = [orientations]

    static let known: Set<String> = [
        "UIInterfaceOrientationPortrait", "UIInterfaceOrientationPortraitUpsideDown",
        "UIInterfaceOrientationLandscapeLeft", "UIInterfaceOrientationLandscapeRight",
    ]

    public init(parameters: ModuleParameters) {}

    public func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard case .success(let (plist, _)) = context.plist(subject.path), let dict = plist.dictionary else { return }
        for key in ["UISupportedInterfaceOrientations", "UISupportedInterfaceOrientations~ipad", "UISupportedInterfaceOrientations~iphone"]
        {
            guard let value = dict[key] else { continue }
            guard let list = value.array?.compactMap(\.string), list.count == value.array?.count else {
                context.report(Self.orientations, path: subject.path, message: "\(key) is not an array of strings")
                continue
            }
            for v in list where !Self.known.contains(v) {
                context.report(Self.orientations, path: subject.path, message: "\(key) has the unknown value \"\(v)\"")
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
            context.report(
                Self.orientations, path: subject.path,
                key: dict["UISupportedInterfaceOrientations~ipad"] != nil
                    ? "UISupportedInterfaceOrientations~ipad" : "UISupportedInterfaceOrientations",
                message:
                    "the app runs on iPad with multitasking but does not support \(missing.joined(separator: ", ")) (iPad because \(context.project.devicesBecause))"
            )
        }
    }

    public static let examples: [RuleExample] = {
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
        ]
    }()
}
