import Foundation
import RuleEngine
import RuleKinds
import RuleKit
import TestSupport
import Testing

/// The files the bundle rules read beside the resources (entitlements, lockfiles, a framework's
/// binary) are inputs like any other: saving one re-judges what read it, and nothing else.
@Suite struct BundleInputsIncrementalTests {
    static func plist(_ body: String) -> ExampleFile {
        .text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n")
    }

    static let project = ExampleTrees.pbxproj(
        buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; CODE_SIGN_ENTITLEMENTS = App/App.entitlements;")

    @Test func savingTheEntitlementsOrALockfileReJudgesThem() throws {
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": Self.project,
            "App/Info.plist": Self.plist("<key>CFBundleName</key><string>App</string>"),
            "App/App.entitlements": Self.plist("<key>aps-environment</key><string>production</string>"),
        ])
        let engine = tree.engine()
        #expect(!engine.diagnostics.contains { $0.rule.hasPrefix("entitlements.") || $0.rule.hasPrefix("privacy.sdk") })

        try tree.write([
            "App/App.entitlements": Self.plist(
                "<key>com.apple.developer.icloud-container-environment</key><string>Development</string>")
        ])
        let saved = engine.apply(changedPaths: [tree.path + "/App/App.entitlements"])
        #expect(saved.added.map(\.rule) == ["entitlements.icloud-environment"], "\(saved.added.map(\.message))")

        // A lockfile that appears is read by the project's evaluation that looked for it.
        try tree.write(["Podfile.lock": .text("PODS:\n  - Alamofire (5.8.1)\n")])
        let pinned = engine.apply(changedPaths: [tree.path + "/Podfile.lock"])
        #expect(pinned.added.map(\.rule) == ["privacy.sdk-version-without-manifest"], "\(pinned.added.map(\.message))")
        try tree.write(["Podfile.lock": .text("PODS:\n  - Alamofire (5.9.1)\n")])
        let updated = engine.apply(changedPaths: [tree.path + "/Podfile.lock"])
        #expect(updated.removed.map(\.rule) == ["privacy.sdk-version-without-manifest"] && updated.added.isEmpty)
    }
}
