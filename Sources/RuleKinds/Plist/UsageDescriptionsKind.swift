import Findings
import RuleKit

/// `plist.usage-description-empty`: every `NS…UsageDescription` purpose string says something.
public struct UsageDescriptionsKind: RuleKind {
    public static let name = "usage-descriptions"
    public static let summary = "Checks that privacy purpose strings (NS…UsageDescription) in Info.plist are not empty."
    public static let subjects: Set<SubjectKind> = [.infoPlist]

    public static let empty = RuleInfo(
        id: "plist.usage-description-empty", severity: .error, code: "ITMS-90738",
        summary: "An NS…UsageDescription key whose value is empty, blank or not a string.",
        rationale:
            "App Store Connect rejects purpose strings that are empty (ITMS-90738); App Programming Guide (Expected App Behaviors): the string must tell the user why the app needs the data.",
        fix: "Write a sentence that says what the app does with the data, e.g. \"Scans receipts you photograph.\"")
    public static let rules = [empty]

    public init(parameters: ModuleParameters) {}

    public func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard case .success(let (plist, _)) = context.plist(subject.path), let dict = plist.dictionary else { return }
        for key in dict.keys.sorted() where Self.isPurposeKey(key) {
            let value = dict[key]!
            guard let text = value.string else {
                context.report(Self.empty, path: subject.path, message: "\(key) is not a string")
                continue
            }
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                context.report(Self.empty, path: subject.path, message: "\(key) is \(text.isEmpty ? "empty" : "blank")")
            }
        }
    }

    /// `NSCameraUsageDescription`, `NSLocationWhenInUseUsageDescription`, and device-suffixed forms.
    static func isPurposeKey(_ key: String) -> Bool {
        let base = key.split(separator: "~").first.map(String.init) ?? key
        return base.hasPrefix("NS") && base.hasSuffix("UsageDescription")
    }

    public static let examples: [RuleExample] = [
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
    ]
}
