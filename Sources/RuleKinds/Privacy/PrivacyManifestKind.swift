import Findings
import ProjectModel
import RuleKit

/// `privacy.invalid`, `privacy.api-category-unknown`, `privacy.api-reason-invalid`,
/// `privacy.tracking-domains`, `privacy.sdk-only-reason`: a `PrivacyInfo.xcprivacy` holds only the
/// keys and values App Store Connect accepts. Sources: TN3181 "Debugging an invalid privacy
/// manifest" and the ITMS wordings of docs/sources.md (Privacy manifests, TN3181).
package struct PrivacyManifestKind: RuleKind {
    package static let name = "privacy-manifest"
    package static let summary = "Checks privacy manifests (PrivacyInfo.xcprivacy) against Apple's keys, categories and reason codes."
    package static let subjects: Set<SubjectKind> = [.privacyManifest]

    package static let invalid = RuleInfo(
        id: "privacy.invalid", severity: .error, code: "ITMS-91056",
        summary:
            "A privacy manifest that is not a property list, or holds a key Apple does not define, a value of the wrong type, an empty NSPrivacyAccessedAPITypes or reasons list, an incomplete collected-data entry, an unknown data type or purpose, NSPrivacyTracking true without domains, or a tracking domain with a scheme, path, query or trailing slash.",
        rationale:
            "App Store Connect: \"Invalid privacy manifest - The PrivacyInfo.xcprivacy file from the following path is invalid … Keys and values in your app's privacy manifests must be valid.\" (ITMS-91056; TN3181 lists each case)",
        fix: "Correct the value at the reported key (Xcode's property-list editor offers the valid keys and values).")
    package static let categoryUnknown = RuleInfo(
        id: "privacy.api-category-unknown", severity: .error, code: "ITMS-91054",
        summary:
            "An NSPrivacyAccessedAPIType that is not one of Apple's five required-reason API categories (a typo, a display name, an empty string).",
        rationale:
            "App Store Connect: \"Invalid API category declaration - The PrivacyInfo.xcprivacy … contains \\\"User Defaults\\\" as the value for a NSPrivacyAccessedAPIType key, which is invalid.\" (ITMS-91054)",
        fix: "Use the category's exact name, e.g. NSPrivacyAccessedAPICategoryUserDefaults.")
    package static let reasonInvalid = RuleInfo(
        id: "privacy.api-reason-invalid", severity: .error, code: "ITMS-91055",
        summary:
            "A reason code that Apple does not approve for that category (the message names the category the code belongs to, if any).",
        rationale:
            "App Store Connect: \"Invalid API reason declaration - … contains \\\"35F9.1\\\" as the value for a NSPrivacyAccessedAPITypeReasons key instead of a valid reason code for using an API in the NSPrivacyAccessedAPICategoryFileTimestamp category.\" (ITMS-91055)",
        fix: "Pick the reason from that category's list in \"Describing use of required reason API\".")
    package static let trackingDomains = RuleInfo(
        id: "privacy.tracking-domains", severity: .error, code: "ITMS-91064",
        summary: "NSPrivacyTrackingDomains lists domains (even an empty string) while NSPrivacyTracking is false or absent.",
        rationale:
            "App Store Connect: \"Invalid tracking information - … NSPrivacyTracking must be true if NSPrivacyTrackingDomains isn't empty.\" (ITMS-91064; ITMS-91107 outside the documented locations)",
        fix: "Set NSPrivacyTracking to true if the app tracks through those domains; otherwise remove the domains.")
    package static let sdkOnlyReason = RuleInfo(
        id: "privacy.sdk-only-reason", severity: .warning,
        summary: "An app's own manifest gives a reason Apple reserves for third-party SDKs (0A2A.1, C56D.1).",
        rationale:
            "\"Describing use of required reason API\": 0A2A.1 and C56D.1 are for \"third-party SDKs that provide wrapper functions\"; an app declaring them claims a use it cannot have.",
        fix: "Give the app's own reason (e.g. C617.1 or CA92.1), and let the SDK's manifest carry the wrapper reason.")

    package static let rules = [invalid, categoryUnknown, reasonInvalid, trackingDomains, sdkOnlyReason]

    /// A manifest with a million entries reports its first findings and counts the rest.
    static let maximumFindings = 50

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let value: PlistValue
        switch context.plist(subject.path) {
        case .failure(.unreadable(let error)):
            context.report(EngineRules.unreadable, severity: .error, path: subject.path, message: "cannot be read: \(error.reason)")
            return
        case .failure(let error):
            context.report(
                Self.invalid, path: subject.path, line: error.line, message: "PrivacyInfo.xcprivacy is not a property list: \(error)")
            return
        case .success(let (v, _)): value = v
        }
        var findings = PrivacyFindings(context: context, path: subject.path)
        guard let root = value.dictionary else {
            findings.add(Self.invalid, "the top level of PrivacyInfo.xcprivacy is not a dictionary")
            return
        }
        let app = PrivacyManifests.isAppsOwn(subject.path, in: context)
        PrivacyManifestCheck(root: root, isAppsOwn: app).check(into: &findings)
        findings.finish()
    }
}

/// Reports a manifest's findings, the first `maximumFindings` of them, then a count of the rest.
struct PrivacyFindings {
    let context: EvaluationContext
    let path: String
    var count = 0

    mutating func add(_ rule: RuleInfo, _ message: String) {
        count += 1
        guard count <= PrivacyManifestKind.maximumFindings else { return }
        context.report(rule, path: path, message: message)
    }

    func finish() {
        guard count > PrivacyManifestKind.maximumFindings else { return }
        context.report(
            PrivacyManifestKind.invalid, path: path,
            message: "\(count - PrivacyManifestKind.maximumFindings) more findings in this manifest (not listed)")
    }
}
