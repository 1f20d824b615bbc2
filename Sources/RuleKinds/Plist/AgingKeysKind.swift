import Findings
import ProjectModel
import RuleKit

/// `plist.requires-fullscreen-deprecated`, `plist.design-compatibility-deprecated`,
/// `plist.queries-schemes-limit`, `plist.export-compliance-missing`: keys of the app's Info.plist
/// whose meaning changes with the iOS 27 SDK, or that stop every TestFlight build. Sources:
/// requirements-2026.md 1.5, 1.6 (TN3192), 1.7 and 2.5 (VERIFIED).
package struct AgingKeysKind: RuleKind {
    package static let name = "aging-keys"
    package static let summary =
        "Checks Info.plist keys the iOS 27 SDK ignores or limits (UIRequiresFullScreen, UIDesignRequiresCompatibility, LSApplicationQueriesSchemes) and export compliance."
    package static let subjects: Set<SubjectKind> = [.infoPlist, .project]

    package static let requiresFullScreen = RuleInfo(
        id: "plist.requires-fullscreen-deprecated", severity: .info,
        summary: "The app sets UIRequiresFullScreen, deprecated since iOS 26 and no longer an opt-out of resizing with the iOS 27 SDK.",
        rationale:
            "TN3192: from iOS 27 UIRequiresFullScreen \"no longer opts an app out of resizing, it requests discrete resizing that honors the supported orientations\", on iPhone as well (requirements-2026.md 1.6). App Store Connect still sends ITMS-90474 for portrait-only iPad apps without it today.",
        fix: "Support every orientation on iPad and resizable windows (TN3192), then remove UIRequiresFullScreen.")
    package static let designCompatibility = RuleInfo(
        id: "plist.design-compatibility-deprecated", severity: .info,
        summary:
            "The app sets UIDesignRequiresCompatibility (the Liquid Glass opt-out), which the system ignores when built with the iOS 27 SDK.",
        rationale:
            "Apple's UIDesignRequiresCompatibility reference: \"The system ignores this key when you build for iOS 27 or later\" (requirements-2026.md 1.5).",
        fix: "Adopt the new design and remove UIDesignRequiresCompatibility before building with Xcode 27.")
    package static let queriesSchemes = RuleInfo(
        id: "plist.queries-schemes-limit", severity: .warning,
        summary:
            "LSApplicationQueriesSchemes has more than 50 entries (warning), or more than 25, the limit for apps linked with the iOS 27 SDK (info).",
        rationale:
            "canOpenURL(_:): apps linked on or after iOS 15 get at most 50 entries, on or after iOS 27 at most 25; the entries past the limit silently make canOpenURL return false (requirements-2026.md 1.7).",
        fix: "Keep the schemes the app really queries, at most 25, in order of importance.")
    package static let exportCompliance = RuleInfo(
        id: "plist.export-compliance-missing", severity: .info,
        summary:
            "The app's Info.plist does not say whether it uses non-exempt encryption (ITSAppUsesNonExemptEncryption), or not as a Boolean.",
        rationale:
            "Without ITSAppUsesNonExemptEncryption every build waits at \"Missing Compliance\" in TestFlight until someone answers by hand (requirements-2026.md 2.5).",
        fix:
            "Add <key>ITSAppUsesNonExemptEncryption</key><false/> when the app uses only exempt encryption (HTTPS), or set INFOPLIST_KEY_ITSAppUsesNonExemptEncryption."
    )
    package static let rules = [requiresFullScreen, designCompatibility, queriesSchemes, exportCompliance]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        // An app whose Info.plist Xcode generates whole is judged on its project (AppInfoPlist).
        guard let app = AppInfoPlist.of(subject, in: context), app.dict["NSExtension"] == nil else { return }
        let dict = app.dict
        if let value = dict["UIRequiresFullScreen"], value.bool == true {
            app.report(
                Self.requiresFullScreen, in: context, key: "UIRequiresFullScreen",
                message:
                    "\(app.name(of: "UIRequiresFullScreen")) is deprecated; built with the iOS 27 SDK it requests discrete resizing instead of opting out (TN3192)"
            )
        }
        if let value = dict["UIDesignRequiresCompatibility"] {
            let typed = value.bool == nil ? " (and it is not a Boolean)" : ""
            app.report(
                Self.designCompatibility, in: context, key: "UIDesignRequiresCompatibility",
                message: "\(app.name(of: "UIDesignRequiresCompatibility")) is ignored once the app is built with the iOS 27 SDK\(typed)")
        }
        if let schemes = dict["LSApplicationQueriesSchemes"]?.array, schemes.count > 25 {
            let past = schemes.dropFirst(schemes.count > 50 ? 50 : 25).compactMap(\.string)
            let shown = past.prefix(5).joined(separator: ", ") + (past.count > 5 ? " and \(past.count - 5) more" : "")
            let message =
                schemes.count > 50
                ? "LSApplicationQueriesSchemes has \(schemes.count) entries; canOpenURL answers only for the first 50 (25 with the iOS 27 SDK): past 50 are \(shown)"
                : "LSApplicationQueriesSchemes has \(schemes.count) entries; apps linked with the iOS 27 SDK get only the first 25: past them are \(shown)"
            app.report(
                Self.queriesSchemes, in: context, severity: schemes.count > 50 ? .warning : .info,
                key: "LSApplicationQueriesSchemes",
                message: message)
        }
        switch dict["ITSAppUsesNonExemptEncryption"] {
        case nil:
            // A generated Info.plist whose settings were not all read may set it. An App Clip
            // ships inside its app's build, whose Info.plist answers the compliance question.
            guard !(context.project.infoPlistGenerated && context.project.buildSettingsIncomplete), !context.project.isAppClip else {
                return
            }
            app.report(
                Self.exportCompliance, in: context,
                message: "the app's Info.plist has no ITSAppUsesNonExemptEncryption: each TestFlight build waits at Missing Compliance")
        case .boolean?: break
        case let value?:
            app.report(
                Self.exportCompliance, in: context, key: "ITSAppUsesNonExemptEncryption",
                message:
                    "\(app.name(of: "ITSAppUsesNonExemptEncryption")) is \(value.text.map { "\"\($0)\"" } ?? "not a Boolean"): use <true/> or <false/>"
            )
        }
    }

    package static let examples: [RuleExample] = {
        let plist = { (body: String) in ["App/Info.plist": ExampleTrees.plist("<key>ITSAppUsesNonExemptEncryption</key><false/>" + body)] }
        let schemes = { (n: Int) in
            "<key>LSApplicationQueriesSchemes</key><array>" + (0..<n).map { "<string>s\($0)</string>" }.joined() + "</array>"
        }
        return [
            RuleExample("none of the keys, compliance answered", files: plist(""), passes: rules.map(\.id)),
            RuleExample(
                "UIRequiresFullScreen set", files: plist("<key>UIRequiresFullScreen</key><true/>"),
                triggers: ["plist.requires-fullscreen-deprecated"]),
            RuleExample(
                "UIRequiresFullScreen false", files: plist("<key>UIRequiresFullScreen</key><false/>"),
                passes: ["plist.requires-fullscreen-deprecated"]),
            RuleExample(
                "UIRequiresFullScreen set in an Info.plist Xcode generates whole",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; INFOPLIST_KEY_ITSAppUsesNonExemptEncryption = NO; INFOPLIST_KEY_UIRequiresFullScreen = YES;"
                    )
                ],
                triggers: ["plist.requires-fullscreen-deprecated"]),
            RuleExample(
                "the Liquid Glass opt-out", files: plist("<key>UIDesignRequiresCompatibility</key><true/>"),
                triggers: ["plist.design-compatibility-deprecated"]),
            RuleExample("25 queried schemes", files: plist(schemes(25)), passes: ["plist.queries-schemes-limit"]),
            RuleExample("26 queried schemes", files: plist(schemes(26)), triggers: ["plist.queries-schemes-limit"]),
            RuleExample("51 queried schemes", files: plist(schemes(51)), triggers: ["plist.queries-schemes-limit"]),
            RuleExample(
                "no export compliance answer", files: ["App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>A</string>")],
                triggers: ["plist.export-compliance-missing"]),
            RuleExample(
                "export compliance from the generated Info.plist's setting",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_ITSAppUsesNonExemptEncryption = NO;"
                    ), "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>A</string>"),
                ], passes: ["plist.export-compliance-missing"]),
            RuleExample(
                "export compliance as a string",
                files: ["App/Info.plist": ExampleTrees.plist("<key>ITSAppUsesNonExemptEncryption</key><string>NO</string>")],
                triggers: ["plist.export-compliance-missing"]),
        ]
    }()
}
