import Foundation
import TestSupport
import Testing

@testable import RuleEngine

/// A path's bytes are held once: the subject index and the evaluation inputs keep the tree's own
/// copy of each path (the same string storage), not copies of their own.
@Suite struct PathSharingTests {
    /// The address of a string's UTF-8 storage (paths here are longer than 15 bytes, so never
    /// stored inline).
    static func storage(_ s: String) -> UnsafeRawPointer? {
        var copy = s
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func subjectsAndInputsShareTheTreesPathStrings() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "/Contents.json": .text(
                #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"icon-60@2x.png"}]}"#),
            set + "/icon-60@2x.png": .png(PNGSpec(width: 120, height: 120)),
        ])
        let engine = tree.engine()
        let files = engine.tree.files
        let icon = try #require(files.keys.first { $0.hasSuffix("icon-60@2x.png") })
        let subject = try #require(engine.subjects.projectOf.keys.first { $0.kind == .image && $0.path == icon })
        #expect(Self.storage(subject.path) == Self.storage(icon), "the image subject keeps the tree's copy of its path")
        let setKey = try #require(engine.tree.directories.keys.first { $0 == set })
        let setSubject = try #require(engine.subjects.projectOf.keys.first { $0.kind == .assetSet })
        #expect(Self.storage(setSubject.path) == Self.storage(setKey), "the set subject keeps the tree's copy")
        // The set's evaluation listed the set: its reverse-index entry is the tree's copy too.
        let input = try #require(engine.store.inputs.first { if case .listing(let p) = $0 { p == set } else { false } })
        guard case .listing(let listed) = input else { return }
        #expect(Self.storage(listed) == Self.storage(setKey), "the reverse index keeps the tree's copy")
    }

    /// A set's evaluation keeps its folder's listing, not one entry per image it read; a change to
    /// an image still re-runs it.
    @Test func aSetsRecordKeepsItsListingNotEachImageAndStillSeesTheirChanges() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "/Contents.json": .text(
                #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"a.png"},{"idiom":"ios-marketing","size":"1024x1024","scale":"1x","filename":"m.png"}]}"#
            ),
            set + "/a.png": .png(PNGSpec(width: 120, height: 120)),
            set + "/m.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        let engine = tree.engine()
        let images = engine.store.inputs.filter { if case .file(let p) = $0 { p.hasSuffix(".png") } else { false } }
        #expect(images.isEmpty, "no per-image entries: \(images)")
        #expect(!engine.diagnostics.contains { $0.rule == "icon.size-mismatch" })
        try tree.write([set + "/a.png": .png(PNGSpec(width: 121, height: 120))])
        engine.apply(changedPaths: [tree.path + "/" + set + "/a.png"])
        #expect(engine.diagnostics.contains { $0.rule == "icon.size-mismatch" }, "the set's evaluation re-ran")
    }
}
