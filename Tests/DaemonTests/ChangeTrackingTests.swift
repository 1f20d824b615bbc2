import Foundation
import ImageFacts
import ReswatchProtocol
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// Write a file, `sync`, query: the answer reflects the write (the real daemon over its socket).
@Suite(.serialized) struct ChangeTrackingTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"
    static func contents(_ file: String) -> ExampleFile {
        .text("{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"\(file)\"}]}")
    }
    static let base: [String: ExampleFile] = [
        "App/.reswatch.yaml": .text("devices: [iphone]\n"),
        set + "/Contents.json": contents("icon.png"),
        set + "/icon.png": .png(PNGSpec(width: 1024, height: 1024)),
    ]

    func expectMatchesCold(_ daemon: DaemonHarness, _ tree: TempTree, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let live = try daemon.diagnosticLines()
        let cold = try coldCheckLines(tree.path)
        #expect(
            live == cold, "daemon vs cold check:\n only daemon: \(Set(live).subtracting(cold))\n only cold: \(Set(cold).subtracting(live))",
            sourceLocation: sourceLocation)
    }

    func rules(_ d: DaemonHarness) throws -> [String] { try d.diagnosticLines().map { String($0.split(separator: " ")[0]) } }

    @Test func createModifyDeleteAndRenameFiles() throws {
        let tree = try TempTree(Self.base)
        let daemon = try DaemonHarness(roots: [tree.path])
        // The project (marked by .reswatch.yaml) has no Info.plist: said once, as info.
        #expect(try daemon.diagnosticLines().map { $0.split(separator: " ")[0] } == ["project.info-plist-unresolved"])

        try tree.write([Self.set + "/icon.png": .png(PNGSpec(width: 1000, height: 1024))])  // modify
        try daemon.sync()
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("icon.size-mismatch") && $0.contains("1000x1024") })

        try tree.write([Self.set + "/extra.png": .png(PNGSpec(width: 10, height: 10))])  // create
        try daemon.sync()
        #expect(try rules(daemon).contains("icon.unassigned"))

        try tree.move(Self.set + "/icon.png", Self.set + "/renamed.png")  // rename
        try daemon.sync()
        let afterRename = try daemon.diagnosticLines()
        #expect(afterRename.contains { $0.hasPrefix("icon.file-missing") } && afterRename.contains { $0.contains("renamed.png") })
        try expectMatchesCold(daemon, tree)

        try tree.remove(Self.set + "/renamed.png")  // delete
        try tree.remove(Self.set + "/extra.png")
        try daemon.sync()
        let leftover = try daemon.diagnosticLines()
        // The set's only file is gone: it is missing, and every size actool would make from it is
        // folded into that one finding (one cause, one finding); the deleted extra.png no longer counts.
        #expect(leftover.contains { $0.hasPrefix("icon.file-missing") && $0.contains("[icon.missing-required]") }, "\(leftover)")
        #expect(!leftover.contains { $0.hasPrefix("icon.missing-required") })
        #expect(!leftover.contains { $0.hasPrefix("icon.unassigned") || $0.hasPrefix("icon.size-mismatch") }, "\(leftover)")
        try expectMatchesCold(daemon, tree)
    }

    @Test func directoriesCreatedRenamedMovedOutAndIn() throws {
        let tree = try TempTree(Self.base)
        let outside = try TempTree()
        let daemon = try DaemonHarness(roots: [tree.path])

        // mkdir -p a/b && cp icon a/b/ — files in a brand-new directory, written at once.
        let dir = tree.path + "/App/Assets.xcassets/New.appiconset"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(PNGSynthesizer.encode(PNGSpec(width: 64, height: 64, color: .gray))).write(to: URL(fileURLWithPath: dir + "/gray.png"))
        try daemon.sync()
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("image.not-rgb App/Assets.xcassets/New.appiconset/gray.png") })
        #expect(try rules(daemon).contains("catalog.contents-missing"))

        try tree.move("App/Assets.xcassets/New.appiconset", "App/Assets.xcassets/Renamed.appiconset")
        try daemon.sync()
        let renamed = try daemon.diagnosticLines()
        #expect(renamed.contains { $0.contains("Renamed.appiconset/gray.png") } && !renamed.contains { $0.contains("New.appiconset") })

        // Moved out of the root: its findings go; files written there afterwards are not watched.
        try FileManager.default.moveItem(
            atPath: tree.path + "/App/Assets.xcassets/Renamed.appiconset", toPath: outside.path + "/Out.appiconset")
        try daemon.sync()
        #expect(!(try daemon.diagnosticLines()).contains { $0.contains(".appiconset/gray.png") })
        // Moved back in under a new name: found again, and later writes inside it are seen.
        try FileManager.default.moveItem(
            atPath: outside.path + "/Out.appiconset", toPath: tree.path + "/App/Assets.xcassets/Back.appiconset")
        try daemon.sync()
        #expect(try daemon.diagnosticLines().contains { $0.contains("Back.appiconset/gray.png") })
        try tree.write(["App/Assets.xcassets/Back.appiconset/Contents.json": .text("{ broken")])
        try daemon.sync()
        #expect(try rules(daemon).contains("catalog.contents-invalid"))
        try expectMatchesCold(daemon, tree)

        try tree.remove("App/Assets.xcassets/Back.appiconset")  // delete a directory
        try daemon.sync()
        try expectMatchesCold(daemon, tree)
    }
}
