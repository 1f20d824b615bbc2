import Findings
import RuleKit

/// `plist.usage-description-empty`: every `NS…UsageDescription` purpose string says something.
package struct UsageDescriptionsKind: RuleKind {
    package static let name = "usage-descriptions"
    package static let summary = "Checks that privacy purpose strings (NS…UsageDescription) in Info.plist are not empty."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let empty = RuleInfo(
        id: "plist.usage-description-empty", severity: .error, code: "ITMS-90738",
        summary: "An NS…UsageDescription key whose value is empty, blank or not a string.",
        rationale:
            "App Store Connect rejects purpose strings that are empty (ITMS-90738); App Programming Guide (Expected App Behaviors): the string must tell the user why the app needs the data.",
        fix: "Write a sentence that says what the app does with the data, e.g. \"Scans receipts you photograph.\"")
    package static let rules = [empty]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        // Any Info.plist as its target ships it (INFOPLIST_KEY_… included). An Info.plist Xcode
        // generates whole has no subject here: a purpose-string setting that is empty or blank
        // generates no key (build settings are read trimmed), so it cannot be empty.
        let app = AppInfoPlist.of(subject, in: context)
        guard let dict = app?.dict ?? context.effectiveInfoPlist(subject.path) else { return }
        for key in dict.keys.sorted() where Self.isPurposeKey(key) {
            let value = dict[key]!
            let name = app?.name(of: key) ?? key
            var message: String?
            if let text = value.string {
                if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    message = "\(name) is \(text.isEmpty ? "empty" : "blank")"
                }
            } else {
                message = "\(name) is not a string"
            }
            guard let message else { continue }
            if let app {
                app.report(Self.empty, in: context, key: key, message: message)
            } else {
                context.report(Self.empty, path: subject.path, key: key, message: message)
            }
        }
    }

    /// `NSCameraUsageDescription`, `NSLocationWhenInUseUsageDescription`, and device-suffixed forms.
    static func isPurposeKey(_ key: String) -> Bool {
        let base = key.split(separator: "~").first.map(String.init) ?? key
        return base.hasPrefix("NS") && base.hasSuffix("UsageDescription")
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a purpose string that explains",
            files: [
                "App/Info.plist": ExampleTrees.plist("<key>NSCameraUsageDescription</key><string>Scans receipts you photograph.</string>")
            ],
            passes: ["plist.usage-description-empty"]),
        RuleExample(
            "an empty camera purpose string",
            files: ["App/Info.plist": ExampleTrees.plist("<key>NSCameraUsageDescription</key><string></string>")],
            triggers: ["plist.usage-description-empty"]),
        RuleExample(
            "a blank microphone purpose string",
            files: ["App/Info.plist": ExampleTrees.plist("<key>NSMicrophoneUsageDescription</key><string>   </string>")],
            triggers: ["plist.usage-description-empty"]),
        RuleExample(
            "an empty purpose-string setting generates no key (and the file has none)",
            files: [
                "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                    buildSettings:
                        "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; INFOPLIST_KEY_NSCameraUsageDescription = \"\";"
                )
            ],
            passes: ["plist.usage-description-empty"]),
    ]
}
