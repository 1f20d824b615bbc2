import Findings
import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

@testable import Repair
@testable import RuleKinds

/// The issue-60 repairs: an extension's obsolete keys removed, an opaque Top Shelf image's alpha dropped.
@Suite struct BundleRepairsTests {
    @Test func anExtensionsObsoleteKeysAreRemovedAndTheRestKept() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            	<key>CFBundleDisplayName</key>
            	<string>Share</string>
            	<key>NSExtension</key>
            	<dict>
            		<key>NSExtensionPointIdentifier</key>
            		<string>com.apple.share-services</string>
            		<key>NSExtensionPointName</key>
            		<string>com.apple.share-services</string>
            		<key>NSExtensionPointVersion</key>
            		<string>1.0</string>
            	</dict>
            </dict>
            </plist>

            """
        var files = BundleKeysKind.app(extensionKeys: BundleKeysKind.goodKeys)
        files["Share/Info.plist"] = .text(plist)
        let tree = try TempTree(files)
        let (plan, _) = RepairKindsTests.plan(tree, only: ["extension.plist-keys"])
        #expect(plan.repairs.count == 2, "\(plan.left.map(\.reason))")
        let new = try #require(RepairKindsTests.written(plan, "Share/Info.plist"))
        let expected = plist.replacingOccurrences(
            of:
                "\t\t<key>NSExtensionPointName</key>\n\t\t<string>com.apple.share-services</string>\n\t\t<key>NSExtensionPointVersion</key>\n\t\t<string>1.0</string>\n",
            with: "")
        #expect(new == expected, "whole lines removed, every other byte kept")
        _ = try FixJournal.apply(plan)
        #expect(tree.engine().diagnostics.filter { $0.rule == "extension.plist-keys" }.isEmpty)
    }

    @Test func aWronglyTypedActivationValueIsLeft() throws {
        var files = BundleKeysKind.app(extensionKeys: BundleKeysKind.goodKeys)
        files["Share/Info.plist"] = ExampleTrees.plist(
            BundleKeysKind.goodKeys
                + "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string><key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key><dict><key>NSExtensionActivationSupportsText</key><string>YES</string></dict></dict></dict>"
        )
        let (plan, _) = RepairKindsTests.plan(try TempTree(files), only: ["extension.plist-keys"])
        #expect(plan.repairs.isEmpty && plan.left.count == 1, "\(plan.repairs.map(\.title))")
    }

    @Test func anOpaqueTopShelfImageLosesItsAlphaChannel() throws {
        let files = TVBrandAssetsKind.brandAssets(
            [TVBrandAssetsKind.appStoreEntry, TVBrandAssetsKind.topShelfEntry],
            files: TVImageStackKind.twoLayers().merging(TVImageStackKind.shelf(.rgba)) { a, _ in a })
        let tree = try TempTree(files)
        let (plan, _) = RepairKindsTests.plan(tree, only: ["tv.brandassets-alpha"])
        #expect(plan.repairs.count == 1, "\(plan.left.map(\.reason))")
        _ = try FixJournal.apply(plan)
        let shelf = tree.path + "/" + TVBrandAssetsKind.brand + "/Top Shelf Image.imageset/shelf.png"
        let header = try #require(try PNGReader.inspect(path: shelf).header)
        #expect(!header.hasAlpha && header.width == 1920)
        #expect(tree.engine().diagnostics.filter { $0.rule == "tv.brandassets-alpha" }.isEmpty)
    }
}
