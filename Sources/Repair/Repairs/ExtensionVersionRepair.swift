import Findings
import ProjectModel
import SystemCalls

/// `plist.extension-version` (ITMS-90473) where the app takes its version from a build setting
/// (`$(MARKETING_VERSION)`, `$(CURRENT_PROJECT_VERSION)`, or a generated Info.plist) and the
/// extension's target sets that setting to the app's value: the extension's literal is replaced
/// by the same reference, so the two can never drift apart again. Any other case is left: which of
/// two versions is right, or which setting the extension should follow, is the person's call.
enum ExtensionVersionRepair: RepairKind {
    static let rules: Set<String> = ["plist.extension-version"]
    static let needsProject: String? = "Set the extension's version to the app's build setting, where its target shares it"

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard let match = finding.message.firstMatch(of: /: (CFBundleShortVersionString|CFBundleVersion) is "/) else {
            return .leave("set the extension's version to the app's")
        }
        let key = String(match.1)
        let setting = key == "CFBundleShortVersionString" ? "MARKETING_VERSION" : "CURRENT_PROJECT_VERSION"
        let reference = "$(\(setting))"
        guard let project = context.project(of: finding.path),
            let target = project.otherTargets.first(where: { $0.infoPlistFile == finding.path })
        else { return .leave("no target of the project names \(finding.path) as its Info.plist") }
        guard appUses(setting, key: key, project: project, context: context) else {
            return .leave("the app does not take \(key) from \(reference): set the same version in both, or have both use \(reference)")
        }
        let appValue = project.appSettings?.string(setting)
        let extensionValue = target.settings?.string(setting)
        guard let appValue, !appValue.isEmpty, !appValue.contains("$"), extensionValue == appValue else {
            return .leave(
                "\(target.name)'s \(setting) is \(extensionValue.map { "\"\($0)\"" } ?? "not set"), the app's \(appValue.map { "\"\($0)\"" } ?? "not known"): make them one setting (at the project level), then use \(reference) in \(finding.path)"
            )
        }
        guard let bytes = context.read(finding.path) else { return .leave("\(finding.path) cannot be read as a regular file") }
        if let refusal = PlistText.refusal(bytes) { return .leave(refusal) }
        guard let current = PlistText.parse(bytes)?[key] as? String else { return .leave("its \(key) is not a string written in the file") }
        if current == reference { return .alreadyRepaired }
        guard !current.contains("$") else {
            return .leave("its \(key) is \(current), a reference: set \(target.name)'s build setting instead")
        }
        guard let new = PlistText.replacingString(of: key, with: reference, in: bytes) else {
            return .leave("its text is not laid out as reswatch can edit without touching other bytes")
        }
        return .repair(
            title: "Set \(key) of \(finding.path) to \(reference) (\(appValue), as the app's)", changes: [context.write(finding.path, new)])
    }

    /// The app's `key` is `$(setting)`: written so in its Info.plist, or generated from it.
    static func appUses(_ setting: String, key: String, project: ProjectContext, context: RepairContext) -> Bool {
        let raw = project.infoPlist.flatMap { context.read($0) }.flatMap { PlistText.parse($0)?[key] as? String }
        if let raw { return raw == "$(\(setting))" || raw == "${\(setting)}" }
        return project.infoPlistGenerated && project.appSettings?.values[setting] != nil
    }
}
