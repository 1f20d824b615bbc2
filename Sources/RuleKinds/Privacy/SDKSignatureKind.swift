import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `privacy.sdk-signature-missing`: an `.xcframework` of an SDK on Apple's list of commonly used
/// third-party SDKs that its publisher did not sign (no `_CodeSignature`): App Store Connect
/// refuses a new app or an update that adds it, "Missing signature" (ITMS-91065, still in 2026
/// with Xcode 26.6; requirements-2026.md 4.3). One finding per SDK, on its first copy.
package struct SDKSignatureKind: RuleKind {
    package static let name = "sdk-signature"
    package static let summary =
        "Checks that each listed third-party SDK shipped as an .xcframework is signed by its publisher (ITMS-91065)."
    package static let subjects: Set<SubjectKind> = [.framework]

    package static let missing = RuleInfo(
        id: "privacy.sdk-signature-missing", severity: .warning, code: "ITMS-91065",
        summary:
            "An .xcframework of an SDK on Apple's list of commonly used third-party SDKs without its publisher's signature (_CodeSignature).",
        rationale:
            "Apple requires the listed SDKs to be signed when shipped as binaries; App Store Connect answers \"ITMS-91065: Missing signature\" for a new app or an update that adds one unsigned (requirements-2026.md 4.3).",
        fix: "Take the SDK's signed release (its publisher's xcframework has _CodeSignature), or build it from source.")
    package static let rules = [missing]

    package init(parameters: ModuleParameters) {}

    package func applies(to subject: Subject) -> Bool { subject.path.hasSuffix(".xcframework") }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let name = RelativePath.name(subject.path)
        let base = String(name.dropLast(".xcframework".count))
        guard PrivacyTables.listedSDKs.contains(base), context.project.noAppReason == nil else { return }
        // One finding per SDK: the first copy of the project (by path) says it.
        let copies = context.subjects(.framework).map(\.path).filter { RelativePath.name($0) == name }.sorted()
        guard copies.first ?? subject.path == subject.path else { return }
        guard !context.isDirectory(RelativePath.join(subject.path, "_CodeSignature")) else { return }
        let others = copies.count > 1 ? " (and \(copies.count - 1) other cop\(copies.count == 2 ? "y" : "ies"))" : ""
        context.report(
            Self.missing, path: subject.path,
            message:
                "\(name) is \(base), on Apple's list of commonly used third-party SDKs, and has no publisher's signature (_CodeSignature)\(others)",
            related: Array(copies.dropFirst().prefix(5)))
    }

    package static let examples: [RuleExample] = {
        let app: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;"),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
        ]
        let slice = "ios-arm64/Alamofire.framework/Info.plist"
        return [
            RuleExample(
                "a signed Alamofire xcframework",
                files: app.merging([
                    "Vendor/Alamofire.xcframework/" + slice: ExampleTrees.plist(""),
                    "Vendor/Alamofire.xcframework/_CodeSignature/Alamofire.xcframework.signature": .text("sig"),
                ]) { a, _ in a }, passes: rules.map(\.id)),
            RuleExample(
                "an unsigned Alamofire xcframework",
                files: app.merging(["Vendor/Alamofire.xcframework/" + slice: ExampleTrees.plist("")]) { a, _ in a },
                triggers: rules.map(\.id)),
            RuleExample(
                "an unsigned xcframework of an SDK not on the list",
                files: app.merging(["Vendor/Kit.xcframework/ios-arm64/Kit.framework/Info.plist": ExampleTrees.plist("")]) { a, _ in a },
                passes: rules.map(\.id)),
        ]
    }()
}
