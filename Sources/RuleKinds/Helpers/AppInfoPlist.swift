import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// The Info.plist the app ships, as a kind that judges it sees it, whether it is a file or
/// Xcode generates it whole from build settings (`GENERATE_INFOPLIST_FILE = YES` and no
/// `INFOPLIST_FILE`, the shape of every app Xcode 13 and later creates). A kind that judges the
/// app's Info.plist takes both `.infoPlist` and `.project` subjects and asks `of(_:in:)`: the
/// file comes as its Info.plist subject, the generated one as the project's subject.
struct AppInfoPlist {
    /// Where findings about it go: the file, or for a generated one the file that sets
    /// `GENERATE_INFOPLIST_FILE` (the pbxproj, an `.xcconfig`, `project.yml`).
    let path: String
    /// The line of that setting, where its file gives one (an `.xcconfig`, `project.yml`).
    let line: Int?
    /// What ships: the file with what Xcode generates merged over it.
    let dict: [String: PlistValue]
    /// The file's own keys (empty for a generated one).
    let file: [String: PlistValue]
    /// No file: every key comes from a build setting.
    let generatedOnly: Bool

    /// The app's Info.plist when `subject` is it (the app's Info.plist file, or the project of
    /// an app whose Info.plist is generated whole); nil for any other subject (an extension's
    /// Info.plist, a project whose app has a file or that builds no iOS app) and for a file that
    /// does not parse as a dictionary (`plist.parse-error` says why).
    static func of(_ subject: Subject, in context: EvaluationContext) -> AppInfoPlist? {
        let project = context.project
        switch subject.kind {
        case .infoPlist:
            guard project.infoPlist == subject.path, case .success(let (value, _)) = context.plist(subject.path),
                let file = value.dictionary, let dict = context.effectiveInfoPlist(subject.path)
            else { return nil }
            return AppInfoPlist(path: subject.path, line: nil, dict: dict, file: file, generatedOnly: false)
        case .project:
            guard subject.path == project.directory, project.infoPlist == nil, project.noAppReason == nil, project.targetName != nil,
                project.infoPlistGenerated, let origin = project.appSettings?.values["GENERATE_INFOPLIST_FILE"]?.origin,
                origin != .xcodeDefault
            else { return nil }
            let generated = project.generatedInfoPlist
            guard !generated.isEmpty else { return nil }
            return AppInfoPlist(path: origin.file, line: origin.line, dict: generated, file: [:], generatedOnly: true)
        default:
            return nil
        }
    }

    /// How a finding names `key`: the key when the file has it, else the build setting that
    /// generates it (`INFOPLIST_KEY_UIRequiresFullScreen`).
    func name(of key: String) -> String {
        file[key] != nil || dict[key] == nil ? key : GeneratedInfoPlist.settingName(of: key)
    }

    /// The configuration object that sets `setting` for the app (a pbxproj's).
    func anchor(of setting: String, in context: EvaluationContext) -> String? {
        context.project.appSettings?.values[setting]?.origin.anchor
    }

    /// Reports a finding about it: at the file (at `key`, when given), or for a generated one at
    /// the setting that generates it, saying so.
    @discardableResult
    func report(
        _ rule: RuleInfo, in context: EvaluationContext, severity: Severity? = nil, key: String? = nil, message: String,
        related: [String] = [], follows cause: ReportedFinding? = nil
    ) -> ReportedFinding? {
        guard generatedOnly else {
            // A key the file lacks that a build setting puts in (GENERATE_INFOPLIST_FILE beside
            // the file): shown at the setting, never as "add <key>" to the file.
            if let key, file[key] == nil, dict[key] != nil, case let setting = GeneratedInfoPlist.settingName(of: key),
                let origin = context.project.appSettings?.values[setting]?.origin, origin != .xcodeDefault
            {
                let line = origin.line ?? SettingLine.find(setting, in: origin.file, anchor: origin.anchor, context: context)
                return context.report(
                    rule, severity: severity, path: origin.file, line: line,
                    message: message + (message.contains(setting) ? "" : " (\(setting))") + ", which Xcode adds to \(path)",
                    related: related, follows: cause)
            }
            return context.report(rule, severity: severity, path: path, key: key, message: message, related: related, follows: cause)
        }
        let target = context.project.targetName ?? "the app"
        let setting = key.map { name(of: $0) }.flatMap { $0.hasPrefix("INFOPLIST_KEY_") ? $0 : nil }
        return context.report(
            rule, severity: severity, path: path,
            line: setting.flatMap { SettingLine.find($0, in: path, anchor: anchor(of: $0, in: context), context: context) } ?? line,
            message: "\(message) (the Info.plist Xcode generates for \(target): GENERATE_INFOPLIST_FILE, no INFOPLIST_FILE)",
            related: related, follows: cause)
    }
}
