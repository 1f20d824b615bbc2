import RuleKit

extension PrivacyManifestKind {
    /// An app's manifest with `body` inside its top-level dict.
    static func manifest(_ body: String, at path: String = "App/PrivacyInfo.xcprivacy") -> [String: ExampleFile] {
        ["App/.reswatch.yaml": ExampleTrees.config(), path: ExampleTrees.plist(body)]
    }

    static func api(_ category: String, _ reasons: [String]) -> String {
        "<key>NSPrivacyAccessedAPITypes</key><array><dict><key>NSPrivacyAccessedAPIType</key><string>\(category)</string><key>NSPrivacyAccessedAPITypeReasons</key><array>"
            + reasons.map { "<string>\($0)</string>" }.joined() + "</array></dict></array>"
    }

    static let collected =
        "<key>NSPrivacyCollectedDataTypes</key><array><dict><key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeCrashData</string><key>NSPrivacyCollectedDataTypeLinked</key><false/><key>NSPrivacyCollectedDataTypeTracking</key><false/><key>NSPrivacyCollectedDataTypePurposes</key><array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array></dict></array>"

    package static let examples: [RuleExample] = [
        RuleExample(
            "a manifest as Xcode writes it",
            files: manifest(
                "<key>NSPrivacyTracking</key><false/>" + api("NSPrivacyAccessedAPICategoryUserDefaults", ["CA92.1"]) + collected),
            passes: rules.map(\.id)),
        RuleExample(
            "an SDK's manifest may give the SDK-only reason",
            files: manifest(
                api("NSPrivacyAccessedAPICategoryUserDefaults", ["C56D.1"]), at: "Vendor/Kit.framework/PrivacyInfo.xcprivacy"),
            passes: rules.map(\.id)),
        RuleExample(
            "not a property list",
            files: ["App/.reswatch.yaml": ExampleTrees.config(), "App/PrivacyInfo.xcprivacy": .text("{ tracking: no")],
            triggers: ["privacy.invalid"]),
        RuleExample(
            "an unknown top-level key", files: manifest("<key>NSPrivacyTrackingEnabled</key><true/>"), triggers: ["privacy.invalid"]),
        RuleExample(
            "an empty reasons list", files: manifest(api("NSPrivacyAccessedAPICategoryDiskSpace", [])), triggers: ["privacy.invalid"]),
        RuleExample(
            "a collected-data entry with a purpose in plain words (AppSpector's mistake)",
            files: manifest(
                collected.replacingOccurrences(of: "NSPrivacyCollectedDataTypePurposeAppFunctionality", with: "App functionality")),
            triggers: ["privacy.invalid"]),
        RuleExample(
            "a tracking domain with a scheme",
            files: manifest(
                "<key>NSPrivacyTracking</key><true/><key>NSPrivacyTrackingDomains</key><array><string>https://ads.example.com/</string></array>"
            ),
            triggers: ["privacy.invalid"], passes: ["privacy.tracking-domains"]),
        RuleExample(
            "the category's display name", files: manifest(api("User Defaults", ["CA92.1"])), triggers: ["privacy.api-category-unknown"],
            passes: ["privacy.api-reason-invalid"]),
        RuleExample(
            "a SystemBootTime reason for UserDefaults", files: manifest(api("NSPrivacyAccessedAPICategoryUserDefaults", ["35F9.1"])),
            triggers: ["privacy.api-reason-invalid"]),
        RuleExample(
            "tracking domains while NSPrivacyTracking is false",
            files: manifest(
                "<key>NSPrivacyTracking</key><false/><key>NSPrivacyTrackingDomains</key><array><string>ads.example.com</string></array>"),
            triggers: ["privacy.tracking-domains"], passes: ["privacy.invalid"]),
        RuleExample(
            "the SDK-only UserDefaults reason in the app's own manifest",
            files: manifest(api("NSPrivacyAccessedAPICategoryUserDefaults", ["C56D.1"])), triggers: ["privacy.sdk-only-reason"]),
    ]
}
