import Foundation
import RuleKit
import TestSupport
import Testing

@testable import RuleEngine

/// A tree thousands of folders deep is hostile input: each change to it costs time linear in its
/// depth (not quadratic per event), and nothing recurses per level (a dispatch thread's stack is
/// small). Before: 1,500 levels removed bottom-up kept the engine busy for minutes.
@Suite struct DeepTreeTests {
    static let depth = 1_500

    /// `x/d/d/…/d/Icon.png` (an empty, so broken, icon at the bottom), built outside the root.
    static func deepChain(in base: String) throws -> [String] {
        var relative = ["x"]
        var path = "x"
        for _ in 0..<depth {
            path += "/d"
            relative.append(path)
        }
        try FileManager.default.createDirectory(atPath: base + "/" + path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: base + "/" + path + "/Icon.png", contents: Data()))
        relative.append(path + "/Icon.png")
        return relative
    }

    @Test func aDeepTreeMovedInAndRemovedConvergesInAnyEventOrder() throws {
        let tree = try TempTree([:])
        let outside = try TempTree([:])
        let paths = try Self.deepChain(in: outside.path)
        let engine = tree.engine()
        try FileManager.default.moveItem(atPath: outside.path + "/x", toPath: tree.path + "/x")
        engine.apply(changedPaths: [tree.path + "/x"])
        #expect(engine.fileCount == 1)
        #expect(engine.diagnostics.map(\.rule) == ["image.not-png"])

        try FileManager.default.removeItem(atPath: tree.path + "/x")
        // inotify reports every level; the settled batch hands them over in no particular order.
        var rng = SystemRandomNumberGenerator()
        engine.apply(changedPaths: paths.shuffled(using: &rng).map { tree.path + "/" + $0 })
        #expect(engine.fileCount == 0)
        #expect(engine.diagnostics.isEmpty)
        #expect(engine.tree.nodes.capacity < 2 * Self.depth + 16, "removed levels are reclaimed, not leaked")
    }

    @Test func aDeepTreeAppearingBelowAnUnknownFolderIsScannedFromTheFirstNewLevel() throws {
        let tree = try TempTree([:])
        let engine = tree.engine()
        let paths = try Self.deepChain(in: tree.path)
        // Only the deepest event arrives (the others were merged away): the whole chain is found.
        engine.apply(changedPaths: [tree.path + "/" + paths.last!])
        #expect(engine.fileCount == 1)
        #expect(engine.tree.isFile(paths.last!))
    }
}

/// A full scan of an engine that has run before (`recheck`) starts its index afresh: the node
/// ids of the old tree mean nothing in the new one.
@Suite struct RescanFromScratchTests {
    @Test func aSecondFullScanOfAShrunkTreeMatchesAColdRun() throws {
        var files: [String: ExampleFile] = ["App/.reswatch.yaml": .text("devices: [iphone]\n")]
        for i in 0..<300 { files["App/Img\(i).imageset/Contents.json"] = .text("{\"images\":[]}") }
        files["App/Zed.imageset/Contents.json"] = .text("{ broken")
        let tree = try TempTree(files)
        let engine = tree.engine()
        for i in 0..<300 { try FileManager.default.removeItem(atPath: tree.path + "/App/Img\(i).imageset") }
        // No change events: the engine learns of it only from the second full scan.
        engine.fullScan()
        #expect(engine.fileCount == 2)
        #expect(engine.diagnostics.map(\.rule).contains("catalog.contents-invalid"))
        let cold = tree.engine()
        #expect(engine.diagnostics == cold.diagnostics)
    }
}
