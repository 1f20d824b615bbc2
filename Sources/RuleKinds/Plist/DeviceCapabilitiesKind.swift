import Findings
import ProjectModel
import RuleKit

/// `plist.device-capabilities`: the app's Info.plist declares UIRequiredDeviceCapabilities with known keys.
package struct DeviceCapabilitiesKind: RuleKind {
    package static let name = "device-capabilities"
    package static let summary =
        "Checks UIRequiredDeviceCapabilities in the app's Info.plist (the App Programming Guide's Table 5-1 plus later keys)."
    package static let subjects: Set<SubjectKind> = [.infoPlist, .project]

    package static let capabilities = RuleInfo(
        id: "plist.device-capabilities", severity: .warning,
        summary:
            "UIRequiredDeviceCapabilities missing from the app's Info.plist, not an array or a dictionary of booleans, or naming an unknown capability.",
        rationale:
            "App Programming Guide (App-Related Resources): \"All apps are required to have this key\"; the App Store uses it to keep the app off devices that cannot run it, and an unknown key silently requires nothing.",
        fix: "Add UIRequiredDeviceCapabilities (Xcode's default is [arm64]) and use only the documented keys.")
    package static let rules = [capabilities]
    package static let parameters = ["known": "the capability keys iOS understands"]

    let known: Set<String>

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        guard let list = try p.strings("known"), !list.isEmpty else {
            throw p.error("device-capabilities: give the known: capability keys")
        }
        known = Set(list)
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        // The Info.plist the app ships (INFOPLIST_KEY_UIRequiredDeviceCapabilities included).
        // Any Info.plist; an app's generated whole is judged on its project (AppInfoPlist).
        let app = AppInfoPlist.of(subject, in: context)
        guard let dict = subject.kind == .project ? app?.dict : context.effectiveInfoPlist(subject.path) else { return }
        func report(_ message: String, severity: Severity? = nil, key: String? = nil) {
            if let app {
                app.report(Self.capabilities, in: context, severity: severity, key: key, message: message)
            } else {
                context.report(Self.capabilities, severity: severity, path: subject.path, key: key, message: message)
            }
        }
        let key = "UIRequiredDeviceCapabilities"
        // Only when a setting names the deployment target (reswatch's assumption proves nothing).
        let modern = context.project.sources["deployment-target"] != .defaults && context.project.deploymentTarget >= OSVersion(11, 0)
        guard let value = dict[key] else {
            // Required of apps; extensions' Info.plists do not need it. From iOS 11 every device is
            // arm64, so a missing key keeps no device away: info, a warning below (issue 59).
            let unknown = context.project.infoPlistGenerated && context.project.buildSettingsIncomplete
            if app != nil, dict["NSExtension"] == nil, !unknown {
                report(
                    "the app's Info.plist has no \(key)\(modern ? " (the deployment target is \(context.project.deploymentTarget): every such device is arm64)" : "")",
                    severity: modern ? .info : nil)
            }
            return
        }
        var names: [String] = []
        if let array = value.array {
            guard array.allSatisfy({ $0.string != nil }) else {
                report("\(key) is an array with non-string entries")
                return
            }
            names = array.compactMap(\.string)
        } else if let map = value.dictionary {
            let notBool = map.filter { if case .boolean = $0.value { return false } else { return true } }.keys.sorted()
            if !notBool.isEmpty {
                report("\(key) values must be booleans: \(notBool.joined(separator: ", "))")
            }
            names = Array(map.keys)
        } else {
            report("\(key) is neither an array nor a dictionary")
            return
        }
        // armv7/armv6 at iOS 11+: no such device runs the app, and the App Store may keep it off
        // arm64 devices (requirements-2026.md 1.9).
        for name in names.sorted() where modern && (name == "armv7" || name == "armv6") {
            report("\(key) requires \(name), but the deployment target is \(context.project.deploymentTarget): require arm64", key: key)
        }
        for name in names.sorted() where !known.contains(name) {
            report("\(key) names the unknown capability \"\(name)\"")
        }
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "arm64 and metal",
            files: [
                "App/Info.plist": ExampleTrees.plist(
                    "<key>UIRequiredDeviceCapabilities</key><array><string>arm64</string><string>metal</string></array>")
            ],
            passes: ["plist.device-capabilities"]),
        RuleExample(
            "a dictionary of booleans",
            files: [
                "App/Info.plist": ExampleTrees.plist(
                    "<key>UIRequiredDeviceCapabilities</key><dict><key>gps</key><true/><key>telephony</key><false/></dict>")
            ],
            passes: ["plist.device-capabilities"]),
        RuleExample(
            "the key is missing", files: ["App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>")],
            triggers: ["plist.device-capabilities"]),
        RuleExample(
            "a misspelt capability",
            files: ["App/Info.plist": ExampleTrees.plist("<key>UIRequiredDeviceCapabilities</key><array><string>armv64</string></array>")],
            triggers: ["plist.device-capabilities"]),
        RuleExample(
            "a string instead of a boolean",
            files: [
                "App/Info.plist": ExampleTrees.plist(
                    "<key>UIRequiredDeviceCapabilities</key><dict><key>gps</key><string>yes</string></dict>")
            ],
            triggers: ["plist.device-capabilities"]),
    ]
}
