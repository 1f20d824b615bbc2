import Findings
import ProjectModel
import RuleKit

/// `plist.extension-keys`, `plist.bundle-name-missing`, `plist.extension-version`: the bundle keys
/// App Store Connect checks in an app and in each extension, after Xcode's build-setting
/// substitution. Sources: ITMS wording (ITMS-90360: element-x-ios
/// PR #1051, Expensify PR #35336, vellum-assistant PR #39556; ITMS-90784: lambdanative #248).
package struct BundleKeysKind: RuleKind {
    package static let name = "bundle-keys"
    package static let summary =
        "Checks the bundle name, display name, executable and versions App Store Connect requires of apps and extensions."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let extensionKeys = RuleInfo(
        id: "plist.extension-keys", severity: .error, code: "ITMS-90360",
        summary:
            "An app extension's Info.plist lacks CFBundleDisplayName, CFBundleName or CFBundleExecutable, or leaves one empty, or as a $(VAR) its target's build settings do not define (INFOPLIST_KEY_CFBundleDisplayName counts when Xcode generates the plist).",
        rationale:
            "App Store Connect: \"Missing Info.plist value - A value for the key 'CFBundleDisplayName' in bundle App.app/PlugIns/NSE.appex is required.\" (ITMS-90360); an undefined $(VAR) expands to an empty value, \"the same App Store rejection as a missing one\".",
        fix:
            "Set the key in the extension's Info.plist (e.g. <key>CFBundleDisplayName</key><string>$(PRODUCT_NAME)</string>), or define the variable in its build settings."
    )
    package static let bundleNameMissing = RuleInfo(
        id: "plist.bundle-name-missing", severity: .error, code: "ITMS-90784",
        summary: "The app's CFBundleName is missing, or empty after build-setting substitution.",
        rationale:
            "App Store Connect: \"Missing bundle name. The Info.plist key CFBundleName is missing or has an empty value in the bundle …\" (ITMS-90784)",
        fix: "Add <key>CFBundleName</key><string>$(PRODUCT_NAME)</string> to the app's Info.plist.")
    package static let extensionVersion = RuleInfo(
        id: "plist.extension-version", severity: .warning, code: "ITMS-90473",
        summary: "An app extension's CFBundleShortVersionString or CFBundleVersion differs from its app's (after substitution).",
        rationale:
            "App Store Connect warns that an extension's version \"must match that of its containing parent app\"; Xcode shows the same warning. Builds whose numbers drift apart are flagged at upload.",
        fix:
            "Give the extension the app's values, e.g. $(MARKETING_VERSION) and $(CURRENT_PROJECT_VERSION) shared through a project-level setting."
    )

    package static let rules = [extensionKeys, bundleNameMissing, extensionVersion]

    package init(parameters: ModuleParameters) {}

    /// A key's value as the built Info.plist has it.
    enum Resolved: Equatable {
        case value(String)
        /// Not in the file, and not added by Xcode.
        case missing
        /// Expands to an empty value; the undefined variables, if any.
        case empty([String])
        /// Cannot be known here (an .xcconfig not read, an Xcode setting reswatch does not model).
        case unknown
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard case .success(let (value, _)) = context.plist(subject.path), let plist = value.dictionary else { return }
        let isExtension = plist["NSExtension"] != nil || plist["EXAppExtensionAttributes"] != nil
        if isExtension {
            checkExtension(subject.path, plist, in: context)
        } else if context.project.infoPlist == subject.path {
            let settings = context.project.appSettings
            let generated = context.project.infoPlistGenerated
            let name = Self.resolve(
                "CFBundleName", in: plist, settings: settings, generated: generated, incomplete: context.project.buildSettingsIncomplete)
            if let why = Self.problem(name) {
                context.report(Self.bundleNameMissing, path: subject.path, message: "the app's Info.plist: CFBundleName \(why)")
            }
        }
    }

    func checkExtension(_ path: String, _ plist: [String: PlistValue], in context: EvaluationContext) {
        // The extension's own target (its INFOPLIST_FILE), for its settings; without a project,
        // the file is what ships.
        let target = context.project.otherTargets.first { $0.infoPlistFile == path }
        guard target != nil || context.project.targetName == nil else {
            context.report(
                EngineRules.notChecked, path: path,
                message:
                    "no target of the project names this extension Info.plist as its INFOPLIST_FILE (an .xcconfig not read may): its bundle keys were not checked against a target's settings"
            )
            return
        }
        let settings = target?.settings
        let generated = settings?.string("GENERATE_INFOPLIST_FILE").map { ["YES", "yes", "1", "true"].contains($0) } ?? false
        let incomplete = target?.settingsIncomplete ?? false
        let name = target.map { "\($0.name)'s Info.plist" } ?? "the extension's Info.plist"
        for key in ["CFBundleDisplayName", "CFBundleName", "CFBundleExecutable"] {
            let resolved = Self.resolve(key, in: plist, settings: settings, generated: generated, incomplete: incomplete)
            if let why = Self.problem(resolved) {
                context.report(Self.extensionKeys, path: path, message: "\(name): \(key) \(why)")
            }
        }
        // Versions: the extension's against its app's, where both can be known.
        guard let appPath = context.project.infoPlist, case .success(let (appValue, _)) = context.plist(appPath),
            let appPlist = appValue.dictionary
        else { return }
        // Flutter's $(FLUTTER_BUILD_NAME)/$(FLUTTER_BUILD_NUMBER) come from pubspec.yaml (issue 58,
        // cause 14: an extension at 1.0 (1) beside a Flutter app went unreported).
        let flutter = VersionFormatKind.flutterVersion(context)
        func substituted(_ dict: [String: PlistValue]) -> [String: PlistValue] {
            guard let flutter else { return dict }
            var out = dict
            for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
                guard var text = dict[key]?.string else { continue }
                for (name, value) in [("FLUTTER_BUILD_NAME", flutter.name), ("FLUTTER_BUILD_NUMBER", flutter.number)] {
                    text = text.replacingOccurrences(of: "$(\(name))", with: value).replacingOccurrences(of: "${\(name)}", with: value)
                }
                out[key] = .string(text)
            }
            return out
        }
        for key in ["CFBundleShortVersionString", "CFBundleVersion"] {
            let mine = Self.resolve(key, in: substituted(plist), settings: settings, generated: generated, incomplete: incomplete)
            let app = Self.resolve(
                key, in: substituted(appPlist), settings: context.project.appSettings, generated: context.project.infoPlistGenerated,
                incomplete: context.project.buildSettingsIncomplete)
            guard case .value(let a) = mine, case .value(let b) = app, a != b else { continue }
            context.report(Self.extensionVersion, path: path, message: "\(name): \(key) is \"\(a)\"; the app's is \"\(b)\"")
        }
    }

    /// What a finding says of a resolved value (nil: fine, or cannot be known).
    static func problem(_ resolved: Resolved) -> String? {
        switch resolved {
        case .value, .unknown: nil
        case .missing: "is missing"
        case .empty(let undefined) where undefined.isEmpty: "is empty"
        case .empty(let undefined):
            "expands to an empty value: \(undefined.map { "$(\($0))" }.joined(separator: ", ")) is defined nowhere in the target's build settings"
        }
    }

    /// The value the built Info.plist has for `key`. A generated plist (GENERATE_INFOPLIST_FILE)
    /// gets CFBundleName, CFBundleExecutable and the versions from Xcode, and CFBundleDisplayName
    /// from INFOPLIST_KEY_CFBundleDisplayName.
    static func resolve(
        _ key: String, in plist: [String: PlistValue], settings: ResolvedBuildSettings?, generated: Bool, incomplete: Bool
    ) -> Resolved {
        guard let raw = plist[key]?.text else {
            guard generated else { return plist[key] == nil ? .missing : .unknown }
            let fromSetting = [
                "CFBundleDisplayName": "INFOPLIST_KEY_CFBundleDisplayName", "CFBundleName": "PRODUCT_NAME",
                "CFBundleExecutable": "EXECUTABLE_NAME", "CFBundleShortVersionString": "MARKETING_VERSION",
                "CFBundleVersion": "CURRENT_PROJECT_VERSION",
            ][key]
            guard let setting = fromSetting else { return .unknown }
            if key == "CFBundleDisplayName" {
                guard let settings, settings.values[setting] != nil else { return incomplete ? .unknown : .missing }
            }
            return settings?.string(setting).map { $0.isEmpty ? .empty([]) : .value($0) } ?? .unknown
        }
        guard raw.contains("$") else { return raw.trimmingCharacters(in: .whitespaces).isEmpty ? .empty([]) : .value(raw) }
        guard let settings, let (value, undefined) = settings.expandingUndefinedAsEmpty(raw) else { return .unknown }
        // A variable the target does not define may come from an .xcconfig that was not read.
        if !undefined.isEmpty, incomplete { return .unknown }
        return value.trimmingCharacters(in: .whitespaces).isEmpty ? .empty(undefined) : .value(value)
    }
}
