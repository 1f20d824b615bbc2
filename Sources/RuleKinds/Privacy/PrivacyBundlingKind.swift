import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `privacy.not-in-target`, `privacy.sdk-manifest-missing`: a manifest reaches the bundle, and a
/// vendored SDK on Apple's list carries its own. Sources: "Adding a privacy manifest to your app
/// or third-party SDK" and "Upcoming third-party SDK requirements" (ITMS-91061), through
/// Privacy manifests, ITMS wording (docs/sources.md).
package struct PrivacyBundlingKind: RuleKind {
    package static let name = "privacy-bundling"
    package static let summary = "Checks that the app's privacy manifest is a resource of a target, and that listed SDKs carry one."
    package static let subjects: Set<SubjectKind> = [.privacyManifest, .framework]

    package static let notInTarget = RuleInfo(
        id: "privacy.not-in-target", severity: .warning,
        summary:
            "An app's PrivacyInfo.xcprivacy that no target copies as a resource (not in a Copy Bundle Resources phase or a synchronized folder).",
        rationale:
            "Apple: the manifest must be in the target's resources at the root of the bundle; one left out of every target is not in the .app, and App Store Connect acts as if there were none (ITMS-91053 mails follow; mullvad/mullvadvpn-app PR #5959).",
        fix: "Tick the app (and each extension that needs it) under Target Membership for PrivacyInfo.xcprivacy.")
    package static let sdkManifestMissing = RuleInfo(
        id: "privacy.sdk-manifest-missing", severity: .warning, code: "ITMS-91061",
        summary:
            "A vendored .framework / .xcframework named like an SDK on Apple's list of commonly used third-party SDKs has no PrivacyInfo.xcprivacy.",
        rationale:
            "App Store Connect: \"Missing privacy manifest - Your app includes …, which includes <SDK>, an SDK that was identified in the documentation as a privacy-impacting third-party SDK. … the SDK must include a privacy manifest file.\" (ITMS-91061)",
        fix: "Update the SDK to a version that ships PrivacyInfo.xcprivacy (most did in 2024), or vendor that version.")

    package static let rules = [notInTarget, sdkManifestMissing]

    /// Levels searched inside an SDK for its manifest (an xcframework's slice is two down).
    static let maximumDepth = 4

    package init(parameters: ModuleParameters) {}

    package func applies(to subject: Subject) -> Bool {
        // A framework inside an xcframework is one of its slices: the xcframework is judged once.
        subject.kind != .framework || !RelativePath.parent(subject.path).split(separator: "/").contains { $0.hasSuffix(".xcframework") }
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        switch subject.kind {
        case .privacyManifest: checkMembership(subject.path, in: context)
        case .framework: checkSDK(subject.path, in: context)
        default: break
        }
    }

    func checkMembership(_ path: String, in context: EvaluationContext) {
        let project = context.project
        // Without a target model there is nothing to be a member of; an SDK's manifest is bundled
        // by its own packaging.
        // Nor when the app's resources could not be read at all (an app bundles something).
        guard project.targetName != nil, !project.ownedPaths.isEmpty, PrivacyManifests.isAppsOwn(path, in: context) else { return }
        let resources = project.ownedPaths + project.otherTargets.flatMap(\.resources)
        guard !resources.contains(where: { RelativePath.isWithin(path, $0) }) else { return }
        context.report(
            Self.notInTarget, path: path, line: 1,
            message: "\(path) is not a resource of \(project.targetName!) or of any other target, so it is not in the app bundle")
    }

    func checkSDK(_ path: String, in context: EvaluationContext) {
        let name = RelativePath.name(path)
        let base = String(name.prefix { $0 != "." })
        guard PrivacyTables.listedSDKs.contains(base), !Self.holdsManifest(path, depth: 0, in: context) else { return }
        context.report(
            Self.sdkManifestMissing, path: path,
            message: "\(name) is \(base), on Apple's list of commonly used third-party SDKs, and holds no PrivacyInfo.xcprivacy")
    }

    static func holdsManifest(_ folder: String, depth: Int, in context: EvaluationContext) -> Bool {
        guard depth < maximumDepth, case .success(let entries) = context.list(folder) else { return false }
        if entries.contains(where: { !$0.isDirectory && $0.name == "PrivacyInfo.xcprivacy" }) { return true }
        return entries.filter(\.isDirectory).contains { holdsManifest(RelativePath.join(folder, $0.name), depth: depth + 1, in: context) }
    }
}
