import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `appclip.parent-entitlement`: an App Clip is signed with
/// `com.apple.developer.parent-application-identifiers`, which names its full app's application
/// identifier (`$(AppIdentifierPrefix)` and the app's bundle identifier) (requirements-2026.md 3.9,
/// VERIFIED for the entitlement). The rest of the App Clip is not judged yet (said).
package struct AppClipKind: RuleKind {
    package static let name = "app-clip"
    package static let summary =
        "Checks that each App Clip is signed with the parent-application-identifiers entitlement naming its full app."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let parentEntitlement = RuleInfo(
        id: "appclip.parent-entitlement", severity: .error,
        summary:
            "An App Clip's entitlements lack com.apple.developer.parent-application-identifiers, or it names no application identifier of the full app.",
        rationale:
            "An App Clip must be signed with com.apple.developer.parent-application-identifiers containing its parent app's application identifier (team prefix and bundle identifier); without it the App Clip is not associated with its app (requirements-2026.md 3.9).",
        fix:
            "Set com.apple.developer.parent-application-identifiers to [$(AppIdentifierPrefix)<the app's bundle identifier>] in the App Clip's entitlements."
    )
    package static let rules = [parentEntitlement]
    static let key = AppClipEntitlement.parentApplicationIdentifiers

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard subject.path == project.directory, project.noAppReason == nil,
            let appID = BundleIdentifier.of(project.appSettings, incomplete: project.buildSettingsIncomplete)
        else { return }
        for clip in project.otherTargets where clip.productType == ResolvedTarget.appClipType {
            guard let settings = clip.settings, !clip.settingsIncomplete else { continue }
            // The full app whose Embed App Clips phase copies it (the context's app when the
            // project does not say); a clip no app embeds ships in none.
            let parentID: String
            switch project.embedding(of: clip) {
            case .app, .unknown: parentID = appID
            case .target(let app):
                guard let id = BundleIdentifier.of(app.settings, incomplete: app.settingsIncomplete) else { continue }
                parentID = id
            case .nowhere: continue
            }
            guard let file = EntitlementsKind.file(settings, in: project) else {
                // A setting that names a file reswatch cannot place ($(VAR), outside the tree) is not judged.
                if let raw = settings.string("CODE_SIGN_ENTITLEMENTS"), !raw.isEmpty { continue }
                context.report(
                    Self.parentEntitlement, path: project.directory,
                    message: "\(clip.name) (App Clip) is signed with no entitlements file, so without \(Self.key)")
                continue
            }
            // A file that is not there or does not parse is the entitlements rules' to say.
            guard case .success(let (value, _)) = context.plist(file), let entitlements = value.dictionary else { continue }
            guard let list = entitlements[Self.key]?.array?.compactMap(\.string) else {
                context.report(Self.parentEntitlement, path: file, message: "\(clip.name) (App Clip) has no \(Self.key)")
                continue
            }
            let names = list.map(Self.bundleIdentifier)
            if !names.contains(parentID) {
                context.report(
                    Self.parentEntitlement, path: file, key: Self.key,
                    message:
                        "\(Self.key) of \(clip.name) is \(list.joined(separator: ", ")): none names the identifier \(parentID) of the app that embeds it"
                )
            }
        }
    }

    /// An application identifier without its team prefix (`$(AppIdentifierPrefix)`, or a literal
    /// ten-character team id and a period).
    static func bundleIdentifier(_ applicationIdentifier: String) -> String {
        for prefix in ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}"] where applicationIdentifier.hasPrefix(prefix) {
            return String(applicationIdentifier.dropFirst(prefix.count))
        }
        let parts = applicationIdentifier.split(separator: ".", maxSplits: 1)
        if parts.count == 2, parts[0].count == 10, parts[0].allSatisfy({ $0.isUppercase || $0.isNumber }) { return String(parts[1]) }
        return applicationIdentifier
    }
}

extension AppClipKind {
    static func project(clipEntitlements: String?) -> ExampleFile {
        let clipSettings = clipEntitlements.map { _ in "CODE_SIGN_ENTITLEMENTS = Clip/Clip.entitlements;" } ?? ""
        return .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; targets = (T1, T2); };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = App/Info.plist; PRODUCT_BUNDLE_IDENTIFIER = com.example.app; }; };
            		T2 = {isa = PBXNativeTarget; name = Clip; productType = "com.apple.product-type.application.on-demand-install-capable"; buildConfigurationList = L3; };
            		L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
            		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = Clip/Info.plist; PRODUCT_BUNDLE_IDENTIFIER = com.example.app.Clip; \(clipSettings) }; };
            	};
            	rootObject = P1;
            }
            """)
    }

    static func clip(_ entitlements: String?) -> [String: ExampleFile] {
        var files: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": project(clipEntitlements: entitlements),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
            "Clip/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>Clip</string>"),
        ]
        if let entitlements { files["Clip/Clip.entitlements"] = ExampleTrees.plist(entitlements) }
        return files
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "an App Clip naming its app with the team prefix variable",
            files: clip("<key>\(key)</key><array><string>$(AppIdentifierPrefix)com.example.app</string></array>"), passes: rules.map(\.id)),
        RuleExample(
            "an App Clip naming its app with a literal team id",
            files: clip("<key>\(key)</key><array><string>ABCDE12345.com.example.app</string></array>"), passes: rules.map(\.id)),
        RuleExample(
            "an App Clip naming another app",
            files: clip("<key>\(key)</key><array><string>$(AppIdentifierPrefix)com.example.other</string></array>"),
            triggers: rules.map(\.id)),
        RuleExample("an App Clip signed without entitlements", files: clip(nil), triggers: rules.map(\.id)),
        RuleExample(
            "the App Clips of two apps of one project, each naming the app that embeds it",
            files: EmbeddingExamples.twoApps(), passes: rules.map(\.id)),
        RuleExample(
            "the Dev app's App Clip naming the Prod app",
            files: EmbeddingExamples.twoApps().merging([
                "DevClip/DevClip.entitlements": ExampleTrees.plist(
                    "<key>\(key)</key><array><string>$(AppIdentifierPrefix)com.example.app</string></array>")
            ]) { _, b in b }, triggers: rules.map(\.id)),
    ]
}
