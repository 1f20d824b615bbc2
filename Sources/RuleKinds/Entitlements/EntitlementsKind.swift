import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `entitlements.parse-error`, `entitlements.nfc-formats`, `entitlements.icloud-environment`,
/// `entitlements.aps-missing`: the entitlements each target is signed with (its
/// `CODE_SIGN_ENTITLEMENTS` in the configuration that ships), as App Store Connect reads them
/// (requirements-2026.md §5, VERIFIED). Judged for the app and every target of the project that
/// ships on iOS or watchOS with it; a file no target names is no target's.
package struct EntitlementsKind: RuleKind {
    package static let name = "entitlements"
    package static let summary =
        "Checks the entitlements each target is signed with (CODE_SIGN_ENTITLEMENTS): they parse, and the NFC, iCloud and push values are ones App Store Connect accepts."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let parseError = RuleInfo(
        id: "entitlements.parse-error", severity: .error,
        summary: "A target's entitlements file (CODE_SIGN_ENTITLEMENTS) does not parse as a property-list dictionary.",
        rationale: "codesign reads the entitlements as a property list; one that does not parse stops the build's signing step.",
        fix: "Fix the file at the line given (an unclosed tag, a stray character), or open it in Xcode's property-list editor.")
    package static let nfcFormats = RuleInfo(
        id: "entitlements.nfc-formats", severity: .error, code: "ITMS-90778",
        summary: "com.apple.developer.nfc.readersession.formats lists NDEF, or lacks TAG.",
        rationale:
            "App Store Connect, 2026: \"Invalid entitlement for core nfc framework … 'TAG is missing in the entitlement' … 'NDEF is disallowed'\" (ITMS-90778; requirements-2026.md 5.1).",
        fix: "List TAG alone in com.apple.developer.nfc.readersession.formats (Xcode: Near Field Communication Tag Reading capability).")
    package static let icloudEnvironment = RuleInfo(
        id: "entitlements.icloud-environment", severity: .error, code: "ITMS-90046",
        summary:
            "com.apple.developer.icloud-container-environment is not Production, or CloudKit is in icloud-services with no container identifier.",
        rationale:
            "App Store Connect: \"Invalid Code Signing Entitlements … value 'Development' for key 'com.apple.developer.icloud-container-environment' … is not supported\" (ITMS-90046); an empty environment or container list fails the same way (requirements-2026.md 5.3).",
        fix:
            "Remove com.apple.developer.icloud-container-environment from the file (Xcode sets it when it exports) or set it to Production; give CloudKit its container in com.apple.developer.icloud-container-identifiers."
    )
    package static let apsMissing = RuleInfo(
        id: "entitlements.aps-missing", severity: .info, code: "ITMS-90078",
        summary: "The app has the remote-notification background mode but is signed without aps-environment.",
        rationale:
            "App Store Connect mails \"ITMS-90078: Missing potentially required entitlement … uses Apple Push Notification service (APNs) registration APIs, but the APS Environment Entitlement isn't included\" (requirements-2026.md 5.2).",
        fix: "Add the Push Notifications capability (aps-environment), or drop remote-notification from UIBackgroundModes.")
    package static let rules = [parseError, nfcFormats, icloudEnvironment, apsMissing]

    package init(parameters: ModuleParameters) {}

    /// A target signed with entitlements: its name, its file (root-relative), and whether it is the app.
    struct Signed {
        let target: String
        let file: String?
        let isApp: Bool
        let incomplete: Bool
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard subject.path == project.directory, project.noAppReason == nil else { return }
        var seen = Set<String>()
        for signed in Self.signedTargets(project) {
            guard let file = signed.file else {
                if signed.isApp { apsMissing(signed, entitlements: nil, context: context) }
                continue
            }
            switch context.plist(file) {
            case .success(let (value, _)):
                guard let entitlements = value.dictionary else {
                    if seen.insert(file).inserted {
                        context.report(
                            Self.parseError, path: file, message: "\(RelativePath.name(file)): the top level is not a dictionary")
                    }
                    continue
                }
                if seen.insert(file).inserted { checkValues(entitlements, file: file, context: context) }
                if signed.isApp { apsMissing(signed, entitlements: entitlements, context: context) }
            case .failure(.unreadable(let error)) where error.errno == 2:
                guard seen.insert(file).inserted else { continue }
                context.report(
                    EngineRules.notChecked, path: project.directory, line: nil,
                    message:
                        "\(signed.target): CODE_SIGN_ENTITLEMENTS names \(file), which is not in the tree: the entitlements it is signed with were not checked"
                )
            case .failure(.unreadable(let error)):
                if seen.insert(file).inserted {
                    context.report(
                        EngineRules.unreadable, path: file, message: "\(RelativePath.name(file)) cannot be read: \(error.reason)")
                }
            case .failure(let error):
                if seen.insert(file).inserted {
                    context.report(
                        Self.parseError, path: file, line: error.line,
                        message: "\(RelativePath.name(file)) (the entitlements of \(signed.target)) does not parse: \(error.description)")
                }
            }
        }
    }

    /// The app and the project's iOS and watchOS targets, each with the entitlements file its
    /// shipping configuration names (nil: none).
    /// The root-relative entitlements file a target's settings name (nil: none, or one outside the tree).
    static func file(_ settings: ResolvedBuildSettings?, in project: ProjectContext) -> String? {
        guard let raw = settings?.string("CODE_SIGN_ENTITLEMENTS"), !raw.isEmpty, !raw.contains("$"), !raw.hasPrefix("/") else {
            return nil
        }
        return RelativePath.normalize(RelativePath.join(project.directory, raw))
    }

    static func signedTargets(_ project: ProjectContext) -> [Signed] {
        func file(_ settings: ResolvedBuildSettings?) -> String? { Self.file(settings, in: project) }
        var out: [Signed] = []
        if let app = project.targetName, let settings = project.appSettings {
            out.append(Signed(target: app, file: file(settings), isApp: true, incomplete: project.buildSettingsIncomplete))
        }
        for target in project.otherTargets where [.iOS, .watchOS].contains(target.platform) && target.settings != nil {
            out.append(Signed(target: target.name, file: file(target.settings), isApp: false, incomplete: target.settingsIncomplete))
        }
        return out
    }

    func checkValues(_ entitlements: [String: PlistValue], file: String, context: EvaluationContext) {
        let nfc = "com.apple.developer.nfc.readersession.formats"
        if let value = entitlements[nfc] {
            let formats = value.array?.compactMap(\.string) ?? []
            if formats.contains("NDEF") {
                context.report(
                    Self.nfcFormats, path: file, key: nfc, message: "\(nfc) lists NDEF, which App Store Connect refuses: list TAG")
            }
            if !formats.contains("TAG") {
                context.report(Self.nfcFormats, path: file, key: nfc, message: "\(nfc) does not list TAG")
            }
        }
        let environment = "com.apple.developer.icloud-container-environment"
        if let value = entitlements[environment], value.string != "Production" {
            let shown = value.string.map { "\"\($0)\"" } ?? "not a string"
            context.report(
                Self.icloudEnvironment, path: file, key: environment,
                message: "\(environment) is \(shown): App Store Connect accepts only Production (Xcode sets it when it exports)")
        }
        let services = entitlements["com.apple.developer.icloud-services"]?.array?.compactMap(\.string) ?? []
        let containers = "com.apple.developer.icloud-container-identifiers"
        if services.contains("CloudKit"), let list = entitlements[containers]?.array,
            list.compactMap(\.string).filter({ !$0.isEmpty }).isEmpty
        {
            context.report(
                Self.icloudEnvironment, path: file, key: containers,
                message: "com.apple.developer.icloud-services has CloudKit but \(containers) names no container")
        }
    }

    /// The app's remote-notification mode without aps-environment in what it is signed with.
    func apsMissing(_ signed: Signed, entitlements: [String: PlistValue]?, context: EvaluationContext) {
        let project = context.project
        guard !signed.incomplete, entitlements?["aps-environment"] == nil else { return }
        let plist = project.infoPlist.flatMap { context.effectiveInfoPlist($0) } ?? project.generatedInfoPlist
        let modes = plist["UIBackgroundModes"]?.array?.compactMap(\.string) ?? []
        guard modes.contains("remote-notification") else { return }
        let signedWith = signed.file.map { "its entitlements (\($0)) have" } ?? "it is signed with no entitlements file, so"
        context.report(
            Self.apsMissing, path: signed.file ?? project.infoPlist ?? project.directory,
            message: "\(signed.target) has the remote-notification background mode, but \(signedWith) no aps-environment")
    }
}

extension EntitlementsKind {
    package static let examples: [RuleExample] = {
        let project = ExampleTrees.pbxproj(
            buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; CODE_SIGN_ENTITLEMENTS = App/App.entitlements;")
        let push = ExampleTrees.plist("<key>UIBackgroundModes</key><array><string>remote-notification</string></array>")
        let app = { (entitlements: String) -> [String: ExampleFile] in
            ["App.xcodeproj/project.pbxproj": project, "App/Info.plist": push, "App/App.entitlements": ExampleTrees.plist(entitlements)]
        }
        let aps = "<key>aps-environment</key><string>production</string>"
        return [
            RuleExample(
                "TAG reading, a production iCloud container and push",
                files: app(
                    aps
                        + "<key>com.apple.developer.nfc.readersession.formats</key><array><string>TAG</string></array><key>com.apple.developer.icloud-container-environment</key><string>Production</string><key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array><key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.com.example.app</string></array>"
                ), passes: rules.map(\.id)),
            RuleExample(
                "NDEF beside TAG",
                files: app(
                    aps + "<key>com.apple.developer.nfc.readersession.formats</key><array><string>NDEF</string><string>TAG</string></array>"
                ),
                triggers: ["entitlements.nfc-formats"]),
            RuleExample(
                "the iCloud container environment left at Development",
                files: app(aps + "<key>com.apple.developer.icloud-container-environment</key><string>Development</string>"),
                triggers: ["entitlements.icloud-environment"]),
            RuleExample(
                "CloudKit with an empty container list",
                files: app(
                    aps
                        + "<key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array><key>com.apple.developer.icloud-container-identifiers</key><array/>"
                ), triggers: ["entitlements.icloud-environment"]),
            RuleExample(
                "an entitlements file that does not parse",
                files: [
                    "App.xcodeproj/project.pbxproj": project, "App/Info.plist": push,
                    "App/App.entitlements": .text(
                        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>aps-environment</key>\n</plist>\n"),
                ], triggers: ["entitlements.parse-error"]),
            RuleExample(
                "remote notifications without aps-environment", files: app("<key>com.apple.security.application-groups</key><array/>"),
                triggers: ["entitlements.aps-missing"]),
            RuleExample(
                "CODE_SIGN_ENTITLEMENTS naming a file that is not in the tree is said, not judged",
                files: ["App.xcodeproj/project.pbxproj": project, "App/Info.plist": push], triggers: ["project.not-checked"],
                passes: rules.map(\.id)),
            RuleExample(
                "an entitlements file no target names is no target's",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;"),
                    "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
                    "App/Old.entitlements": ExampleTrees.plist(
                        "<key>com.apple.developer.nfc.readersession.formats</key><array><string>NDEF</string></array>"),
                ], passes: rules.map(\.id)),
        ]
    }()
}
