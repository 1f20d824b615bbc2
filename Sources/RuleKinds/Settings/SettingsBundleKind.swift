import Findings
import RuleKit
import SystemCalls

/// `settings.bundle-invalid`: a Settings.bundle has a readable Root.plist.
package struct SettingsBundleKind: RuleKind {
    package static let name = "settings-bundle"
    package static let summary = "Checks that Settings.bundle has a readable, well-formed Root.plist."
    package static let subjects: Set<SubjectKind> = [.settingsBundle]

    package static let invalid = RuleInfo(
        id: "settings.bundle-invalid", severity: .error,
        summary: "Settings.bundle without a readable Root.plist (missing, unparsable, or without PreferenceSpecifiers).",
        rationale: "The Settings app shows nothing for the app when Root.plist is missing or broken; the bundle ships dead weight.",
        fix: "Add Root.plist with a PreferenceSpecifiers array (Xcode's Settings Bundle template), or fix its syntax at the reported line.")
    package static let rules = [invalid]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let root = RelativePath.join(subject.path, "Root.plist")
        guard context.exists(root) else {
            context.report(Self.invalid, path: subject.path, message: "Settings.bundle has no Root.plist")
            return
        }
        switch context.plist(root) {
        case .failure(.unreadable(let e)):
            context.report(Self.invalid, path: root, message: "Root.plist cannot be read: \(e.reason)")
        case .failure(let e):
            context.report(Self.invalid, path: root, line: e.line, message: "Root.plist does not parse: \(e.description)")
        case .success(let (plist, _)):
            if plist["PreferenceSpecifiers"]?.array == nil {
                context.report(Self.invalid, path: root, message: "Root.plist has no PreferenceSpecifiers array")
            }
        }
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a Root.plist with PreferenceSpecifiers",
            files: [
                "App/Settings.bundle/Root.plist": ExampleTrees.plist(
                    "<key>PreferenceSpecifiers</key><array><dict><key>Type</key><string>PSGroupSpecifier</string></dict></array>")
            ], passes: ["settings.bundle-invalid"]),
        RuleExample(
            "no Root.plist", files: ["App/Settings.bundle/en.lproj/Root.strings": .text("")], triggers: ["settings.bundle-invalid"]),
        RuleExample(
            "a Root.plist that does not parse", files: ["App/Settings.bundle/Root.plist": .text("<plist><dict><key>x</key>")],
            triggers: ["settings.bundle-invalid"]),
    ]
}
