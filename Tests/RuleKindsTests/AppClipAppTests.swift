import Foundation
import RuleEngine
import RuleKit
import TestSupport
import Testing

@testable import RuleKinds

/// An App Clip is an iOS app of its own that its full app embeds (requirements-2026.md 3.9): its
/// Info.plist, icons and privacy manifest are judged in a context of its own, and each bundle of
/// a project with two apps is judged against the app that embeds it (the targets' Copy Files
/// phases), not against the project's first app.
@Suite struct AppClipAppTests {
    @Test func theAppClipsOfTwoAppsAreJudgedAsAppsAndNothingIsFalselyFlagged() throws {
        let engine = try TempTree(EmbeddingExamples.twoApps()).engine()
        let said = engine.diagnostics.map { "\($0.path): \($0.rule): \($0.message)" }
        // Each clip is an app: its Info.plist (which names no launch screen) is judged as one …
        for clip in ["ProdClip", "DevClip"] {
            #expect(
                engine.diagnostics.contains { $0.rule == "launch.missing" && $0.path == "\(clip)/Info.plist" }, "\(said)")
            // … and it is never said to be unchecked.
            #expect(!engine.diagnostics.contains { $0.rule == "project.not-checked" && $0.message.contains(clip) }, "\(said)")
        }
        // Each bundle is judged against the app that embeds it: Dev's against Dev's identifier,
        // the watch widget against its WatchKit extension's.
        let embedding = ["bundle.id-prefix", "bundle.id-collision", "watch.companion-id", "appclip.parent-entitlement"]
        #expect(!engine.diagnostics.contains { embedding.contains($0.rule) }, "\(said)")
        // The compliance question is the full app's to answer, not the clip's.
        #expect(
            !engine.diagnostics.contains { $0.rule == "plist.export-compliance-missing" && $0.path.contains("Clip/") }, "\(said)")
    }

    @Test func anAppClipsOwnIconSetIsJudgedWithItsOwnSettings() throws {
        var files = EmbeddingExamples.twoApps(extra: ["ProdClip": "ASSETCATALOG_COMPILER_APPICON_NAME = ClipIcon;"])
        // The clip's icon set, in its own catalog, lacks its App Store icon.
        files["ProdClip/Assets.xcassets/ClipIcon.appiconset/Contents.json"] = .text(
            #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x"}],"info":{"version":1,"author":"xcode"}}"#)
        let engine = try TempTree(files).engine()
        let inSet = engine.diagnostics.filter { $0.path.hasPrefix("ProdClip/Assets.xcassets/ClipIcon.appiconset") }
        #expect(inSet.contains { $0.rule == "icon.marketing-missing" }, "\(inSet.map(\.rule))")
        #expect(!inSet.contains { $0.rule == "icon.not-shipped" }, "\(inSet.map(\.message))")
    }

    @Test func anAppClipOfAProjectWithoutAFullAppIsSaidNotJudged() throws {
        let targets = [
            EmbeddingExamples.Target(
                name: "Clip", productType: EmbeddingExamples.clip,
                settings: "INFOPLIST_FILE = Clip/Info.plist; PRODUCT_BUNDLE_IDENTIFIER = com.example.clip; SDKROOT = iphoneos;")
        ]
        let engine = try TempTree([
            "App.xcodeproj/project.pbxproj": EmbeddingExamples.project(targets),
            "Clip/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>Clip</string>"),
        ]).engine()
        #expect(engine.diagnostics.contains { $0.rule == "project.not-checked" && $0.message.contains("Clip") })
        #expect(!engine.diagnostics.contains { $0.rule == "launch.missing" }, "\(engine.diagnostics.map(\.message))")
    }
}
