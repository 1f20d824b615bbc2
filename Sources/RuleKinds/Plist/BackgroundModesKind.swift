import Findings
import ProjectModel
import RuleKit

/// `plist.background-task-identifiers`, `plist.background-mode-unknown`: the background modes of
/// the Info.plist the app ships (the file with what Xcode generates). Sources:
/// requirements-2026.md 2.1 (ITMS-90771, VERIFIED) and 2.2 (ITMS-90362); the values iOS knows are
/// swift-build's `keyValuesPlatformSupport` for `UIBackgroundModes` and Apple's UIBackgroundModes
/// reference.
package struct BackgroundModesKind: RuleKind {
    package static let name = "background-modes"
    package static let summary = "Checks UIBackgroundModes and the task identifiers the processing mode needs (ITMS-90771)."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let taskIdentifiers = RuleInfo(
        id: "plist.background-task-identifiers", severity: .error, code: "ITMS-90771",
        summary:
            "The app's UIBackgroundModes has processing but BGTaskSchedulerPermittedIdentifiers is missing, empty or not a list of strings.",
        rationale:
            "App Store Connect: \"Missing Info.plist value. The Info.plist key 'BGTaskSchedulerPermittedIdentifiers' must contain a list of identifiers used to submit and handle tasks when 'UIBackgroundModes' has a value of 'processing'.\" (ITMS-90771; requirements-2026.md 2.1)",
        fix:
            "Add BGTaskSchedulerPermittedIdentifiers with the identifiers your code registers (BGTaskScheduler.shared.register(forTaskWithIdentifier:)), or remove the processing mode."
    )
    package static let modeUnknown = RuleInfo(
        id: "plist.background-mode-unknown", severity: .warning, code: "ITMS-90362",
        summary: "UIBackgroundModes is not a list of strings, or names a mode iOS does not know (a typo, a watchOS-only mode).",
        rationale:
            "App Store Connect refuses an Info.plist value the platform does not know (\"Invalid Info.plist value\", ITMS-90362; requirements-2026.md 2.2); a misspelt mode also leaves the real one undeclared.",
        fix: "Use the documented values (audio, location, voip, fetch, remote-notification, processing …).")
    package static let rules = [taskIdentifiers, modeUnknown]
    package static let parameters = ["known": "the UIBackgroundModes values iOS knows"]

    let known: Set<String>

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        guard let list = try p.strings("known"), !list.isEmpty else { throw p.error("background-modes: give the known: modes") }
        known = Set(list)
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard context.project.infoPlist == subject.path, let dict = context.effectiveInfoPlist(subject.path), dict["NSExtension"] == nil,
            let value = dict["UIBackgroundModes"]
        else { return }
        guard let modes = value.array?.compactMap(\.string), modes.count == value.array?.count else {
            context.report(
                Self.modeUnknown, path: subject.path, key: "UIBackgroundModes", message: "UIBackgroundModes is not a list of strings")
            return
        }
        for mode in modes where !known.contains(mode) && !mode.contains("$(") {
            let close = known.filter { EditDistance.isClose(mode, $0) }.sorted()
            let hint = close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"
            context.report(
                Self.modeUnknown, path: subject.path, key: "UIBackgroundModes",
                message: "UIBackgroundModes names \"\(mode)\", a mode iOS does not know\(hint)")
        }
        guard modes.contains("processing") else { return }
        let identifiers = dict["BGTaskSchedulerPermittedIdentifiers"]
        let strings = identifiers?.array?.compactMap(\.string) ?? []
        if identifiers == nil {
            context.report(
                Self.taskIdentifiers, path: subject.path,
                key: "UIBackgroundModes",
                message: "UIBackgroundModes has processing but the Info.plist has no BGTaskSchedulerPermittedIdentifiers")
        } else if strings.isEmpty || strings.count != identifiers?.array?.count || strings.contains(where: \.isEmpty) {
            context.report(
                Self.taskIdentifiers, path: subject.path,
                key: "BGTaskSchedulerPermittedIdentifiers",
                message: "UIBackgroundModes has processing but BGTaskSchedulerPermittedIdentifiers is not a non-empty list of identifiers")
        }
    }

    package static let examples: [RuleExample] = {
        let plist = { (body: String) in ["App/Info.plist": ExampleTrees.plist(body)] }
        let modes = { (m: [String]) in
            "<key>UIBackgroundModes</key><array>" + m.map { "<string>\($0)</string>" }.joined() + "</array>"
        }
        return [
            RuleExample(
                "processing with the identifiers it submits",
                files: plist(
                    modes(["processing", "fetch"])
                        + "<key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.refresh</string></array>"),
                passes: rules.map(\.id)),
            RuleExample(
                "processing without BGTaskSchedulerPermittedIdentifiers", files: plist(modes(["processing"])),
                triggers: ["plist.background-task-identifiers"], passes: ["plist.background-mode-unknown"]),
            RuleExample(
                "processing with an empty list",
                files: plist(modes(["processing"]) + "<key>BGTaskSchedulerPermittedIdentifiers</key><array/>"),
                triggers: ["plist.background-task-identifiers"]),
            RuleExample(
                "processing from the generated Info.plist's settings is judged too",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES;"),
                    "App/Info.plist": ExampleTrees.plist(modes(["processing"])),
                ], triggers: ["plist.background-task-identifiers"]),
            RuleExample(
                "a misspelt mode and a watchOS-only one", files: plist(modes(["remote-notifications", "workout-processing"])),
                triggers: ["plist.background-mode-unknown"], passes: ["plist.background-task-identifiers"]),
            RuleExample(
                "no background modes", files: plist("<key>CFBundleName</key><string>App</string>"), passes: rules.map(\.id)),
        ]
    }()
}
