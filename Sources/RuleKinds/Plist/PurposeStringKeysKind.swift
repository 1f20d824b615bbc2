import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `plist.usage-description-pair`, `plist.usage-description-unknown`,
/// `plist.usage-description-entitlement`: the purpose strings App Store Connect asks for
/// (ITMS-90683, still the most common mail in 2025–26; requirements-2026.md 2.3, 2.4, VERIFIED),
/// judged on the Info.plist the app ships.
package struct PurposeStringKeysKind: RuleKind {
    package static let name = "purpose-string-keys"
    package static let summary =
        "Checks that purpose strings come in the pairs iOS needs, are keys Apple defines, and exist for the entitlements the app is signed with (ITMS-90683)."
    package static let subjects: Set<SubjectKind> = [.infoPlist, .project]

    package static let pair = RuleInfo(
        id: "plist.usage-description-pair", severity: .warning, code: "ITMS-90683",
        summary:
            "A purpose string without the one iOS needs beside it: location always-and-when-in-use without when-in-use, and for older deployment targets Bluetooth always (< 13), full-access calendars and reminders (< 17) without the earlier key.",
        rationale:
            "CLLocationManager.requestAlwaysAuthorization: \"you must include both NSLocationWhenInUseUsageDescription and NSLocationAlwaysAndWhenInUseUsageDescription\"; Apple's Bluetooth, Calendars and Reminders keys ask for the older key too while the app supports older iOS. Without it App Store Connect sends ITMS-90683 (requirements-2026.md 2.3, 2.4).",
        fix: "Add the companion key with a sentence that says why the app needs the access.")
    package static let unknown = RuleInfo(
        id: "plist.usage-description-unknown", severity: .warning, code: "ITMS-90683",
        summary: "A key shaped like a purpose string (…UsageDescription) that is not one of Apple's: a typo leaves the real key missing.",
        rationale:
            "iOS reads only the keys Apple defines; NSLocationWhenInUseDescription or NSUserNotificationsUsageDescription are never shown, and the access they were meant for still lacks its purpose string (requirements-2026.md 2.3).",
        fix: "Rename the key to Apple's (the finding names the nearest), or remove it.")
    package static let entitlement = RuleInfo(
        id: "plist.usage-description-entitlement", severity: .warning, code: "ITMS-90683",
        summary:
            "The app is signed with an entitlement that needs a purpose string (HealthKit, HomeKit, Siri, NFC tag reading) and its Info.plist lacks it.",
        rationale:
            "ITMS-90683 now says \"or the app has one or more entitlements that permit such access\": the HealthKit, HomeKit, Siri and NFC entitlements each need their purpose string (requirements-2026.md 2.3).",
        fix: "Add the purpose string the finding names, or remove the entitlement if the app does not use the feature.")
    package static let rules = [pair, unknown, entitlement]
    package static let parameters = ["known": "the purpose-string keys Apple defines"]

    let known: Set<String>

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        guard let list = try p.strings("known"), !list.isEmpty else { throw p.error("purpose-string-keys: give the known: keys") }
        known = Set(list)
    }

    /// (key present, deployment below which the companion is needed (nil: always), companion).
    static let pairs: [(String, OSVersion?, String)] = [
        ("NSLocationAlwaysAndWhenInUseUsageDescription", nil, "NSLocationWhenInUseUsageDescription"),
        ("NSBluetoothAlwaysUsageDescription", OSVersion(13, 0), "NSBluetoothPeripheralUsageDescription"),
        ("NSCalendarsFullAccessUsageDescription", OSVersion(17, 0), "NSCalendarsUsageDescription"),
        ("NSRemindersFullAccessUsageDescription", OSVersion(17, 0), "NSRemindersUsageDescription"),
    ]
    /// Entitlement → the purpose strings it needs (any one of them).
    static let entitlementKeys: [(String, [String])] = [
        ("com.apple.developer.healthkit", ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"]),
        ("com.apple.developer.homekit", ["NSHomeKitUsageDescription"]),
        ("com.apple.developer.siri", ["NSSiriUsageDescription"]),
        ("com.apple.developer.nfc.readersession.formats", ["NFCReaderUsageDescription"]),
    ]

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        // An app whose Info.plist Xcode generates whole is judged on its project (AppInfoPlist).
        guard let app = AppInfoPlist.of(subject, in: context), app.dict["NSExtension"] == nil else { return }
        let dict = app.dict
        // A pair that depends on the deployment target is judged only when a setting names it
        // (a project without one builds for the SDK's own version, not reswatch's assumption).
        let targetKnown = context.project.sources["deployment-target"] != .defaults
        for (key, below, companion) in Self.pairs where dict[key] != nil && dict[companion] == nil {
            if let below, !targetKnown || context.project.deploymentTarget >= below { continue }
            let why = below.map { " (\(context.project.deploymentTargetBecause): \(context.project.deploymentTarget), below \($0))" } ?? ""
            app.report(Self.pair, in: context, key: key, message: "\(app.name(of: key)) is there but \(companion) is not\(why)")
        }
        for key in dict.keys.sorted() {
            let base = key.split(separator: "~").first.map(String.init) ?? key
            guard base.hasSuffix("UsageDescription"), !known.contains(base) else { continue }
            let close = known.filter { EditDistance.isClose(base, $0) }.sorted()
            let hint = close.isEmpty ? "" : "; did you mean \(close.prefix(2).joined(separator: " or "))?"
            app.report(Self.unknown, in: context, key: key, message: "\(key) is not a purpose-string key iOS reads\(hint)")
        }
        checkEntitlements(app, context: context)
    }

    func checkEntitlements(_ app: AppInfoPlist, context: EvaluationContext) {
        guard let file = context.project.appSettings?.string("CODE_SIGN_ENTITLEMENTS"), !file.isEmpty, !file.hasPrefix("/"),
            let path = RelativePath.normalize(RelativePath.join(context.project.directory, file)),
            case .success(let (value, _)) = context.plist(path), let entitlements = value.dictionary
        else { return }
        for (name, keys) in Self.entitlementKeys where entitlements[name] != nil && !keys.contains(where: { app.dict[$0] != nil }) {
            if case .boolean(false)? = entitlements[name] { continue }
            app.report(
                Self.entitlement, in: context,
                message: "the app is signed with \(name) (\(file)) but its Info.plist has no \(keys.joined(separator: " or "))",
                related: [path])
        }
    }

    package static let examples: [RuleExample] = {
        let plist = { (body: String) in ["App/Info.plist": ExampleTrees.plist(body)] }
        let key = { (k: String) in "<key>\(k)</key><string>Shows nearby stops.</string>" }
        return [
            RuleExample(
                "both location keys",
                files: plist(key("NSLocationAlwaysAndWhenInUseUsageDescription") + key("NSLocationWhenInUseUsageDescription")),
                passes: rules.map(\.id)),
            RuleExample(
                "always-and-when-in-use without when-in-use", files: plist(key("NSLocationAlwaysAndWhenInUseUsageDescription")),
                triggers: ["plist.usage-description-pair"]),
            RuleExample(
                "full-access calendars with a deployment target of 16",
                files: plist(key("NSCalendarsFullAccessUsageDescription")).merging([
                    "App/.reswatch.yaml": ExampleTrees.config(target: "16.0")
                ]) { a, _ in a }, triggers: ["plist.usage-description-pair"]),
            RuleExample(
                "full-access calendars with a deployment target of 17",
                files: plist(key("NSCalendarsFullAccessUsageDescription")).merging([
                    "App/.reswatch.yaml": ExampleTrees.config(target: "17.0")
                ]) { a, _ in a }, passes: rules.map(\.id)),
            RuleExample(
                "a misspelt key and one Apple never defined",
                files: plist(key("NSLocationWhenInUseDescription") + key("NSCamraUsageDescription")),
                triggers: ["plist.usage-description-unknown"]),
            RuleExample(
                "HealthKit signed without its purpose strings",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; CODE_SIGN_ENTITLEMENTS = App/App.entitlements;"
                    ),
                    "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>A</string>"),
                    "App/App.entitlements": ExampleTrees.plist("<key>com.apple.developer.healthkit</key><true/>"),
                ], triggers: ["plist.usage-description-entitlement"]),
            RuleExample(
                "HealthKit signed with its purpose string",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; CODE_SIGN_ENTITLEMENTS = App/App.entitlements;"
                    ),
                    "App/Info.plist": ExampleTrees.plist(key("NSHealthShareUsageDescription")),
                    "App/App.entitlements": ExampleTrees.plist("<key>com.apple.developer.healthkit</key><true/>"),
                ], passes: rules.map(\.id)),
            RuleExample(
                "HealthKit signed, and an Info.plist Xcode generates whole with always-and-when-in-use location only",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; CODE_SIGN_ENTITLEMENTS = App/App.entitlements; INFOPLIST_KEY_NSLocationAlwaysAndWhenInUseUsageDescription = \"Shows nearby stops.\";"
                    ),
                    "App/App.entitlements": ExampleTrees.plist("<key>com.apple.developer.healthkit</key><true/>"),
                ], triggers: ["plist.usage-description-entitlement", "plist.usage-description-pair"]),
        ]
    }()
}
