import Findings
import Foundation
import ImageFacts
import RuleEngine
import SystemCalls
import TestSupport
import Testing

@testable import Repair

/// Applying a plan loses nothing: originals are saved with a journal first, each file is replaced
/// atomically, a stale plan or a path out of the root stops the run before any write, and undo
/// restores every byte (leaving, and naming, a file edited after the fix).
@Suite struct FixJournalTests {
    static let plist =
        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleName</key>\n\t<string>App</string>\n</dict>\n</plist>\n"

    static func tree() throws -> TempTree {
        try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            "App/Info.plist": .text(Self.plist),
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\"images\":[{\"filename\":\"Icon.png\",\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\"}]}"),
            "App/Assets.xcassets/AppIcon.appiconset/icon.png": .png(PNGSpec(width: 1024, height: 1024)),
            "App/Assets.xcassets/Logo.imageset/Contents.json": .text("{\"images\":[{\"idiom\":\"universal\",\"filename\":\"logo.png\"}]}"),
            "App/Assets.xcassets/Logo.imageset/logo.png": .bytes([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]),
        ])
    }

    static func plan(_ tree: TempTree) -> RepairPlan {
        let engine = tree.engine()
        return Repairer.plan(root: tree.path, diagnostics: engine.diagnostics, projects: engine.projectContexts)
    }

    /// Every file under the root but the journal's, with its bytes.
    static func snapshot(_ root: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            guard !path.hasPrefix(".reswatch"), let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out[path] = data
            }
        }
        return out
    }

    @Test func applyRepairsAndUndoRestoresEveryByte() throws {
        let tree = try Self.tree()
        let before = try Self.snapshot(tree.path)
        let plan = Self.plan(tree)
        #expect(plan.repairs.count == 3, "\(plan.repairs.map(\.title))")
        let journal = try FixJournal.apply(plan)
        let after = try Self.snapshot(tree.path)
        #expect(after["App/Assets.xcassets/Logo.imageset/logo.jpg"] == before["App/Assets.xcassets/Logo.imageset/logo.png"])
        #expect(after["App/Assets.xcassets/AppIcon.appiconset/icon.png"] == before["App/Assets.xcassets/AppIcon.appiconset/icon.png"])
        #expect(Self.plan(tree).repairs.isEmpty, "nothing left to repair")
        let progress = try String(contentsOfFile: tree.path + "/" + journal + "/progress", encoding: .utf8)
        #expect(progress == "0\n1\n2\n3\n", "each change logged once made")
        let report = try FixJournal.undo(root: tree.path)
        #expect(report.restored.count == 4 && report.leftAlone.isEmpty)
        #expect(try Self.snapshot(tree.path) == before)
        #expect(throws: FixError.self) { try FixJournal.undo(root: tree.path) }
    }

    @Test func aFileChangedSinceThePlanStopsTheRunBeforeAnyWrite() throws {
        let tree = try Self.tree()
        let plan = Self.plan(tree)
        try tree.write(["App/Info.plist": .text(Self.plist + "<!-- edited -->\n")])
        let before = try Self.snapshot(tree.path)
        #expect(throws: FixError.self) { try FixJournal.apply(plan) }
        #expect(try Self.snapshot(tree.path) == before)
        #expect(!FileManager.default.fileExists(atPath: tree.path + "/.reswatch"), "no journal: nothing was done")
    }

    @Test func undoLeavesAFileEditedAfterTheFixAndSaysSo() throws {
        let tree = try Self.tree()
        let before = try Self.snapshot(tree.path)
        try FixJournal.apply(Self.plan(tree))
        try tree.write(["App/Info.plist": .text("<!-- the person's own edit -->\n")])
        let report = try FixJournal.undo(root: tree.path)
        #expect(report.leftAlone == ["App/Info.plist"])
        #expect(try String(contentsOfFile: tree.path + "/App/Info.plist", encoding: .utf8) == "<!-- the person's own edit -->\n")
        #expect(
            try Self.snapshot(tree.path)["App/Assets.xcassets/AppIcon.appiconset/Contents.json"]
                == before["App/Assets.xcassets/AppIcon.appiconset/Contents.json"])
    }

    /// A run stopped part-way (the journal still says "applying", progress lists one change):
    /// each file is whole, old or new, and undo restores what was changed.
    @Test func anInterruptedRunIsUndone() throws {
        let tree = try Self.tree()
        let before = try Self.snapshot(tree.path)
        let journal = try FixJournal.apply(Self.plan(tree))
        let file = tree.path + "/" + journal + "/journal.json"
        let text = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "\"applied\"", with: "\"applying\"")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try "0\n".write(toFile: tree.path + "/" + journal + "/progress", atomically: true, encoding: .utf8)
        _ = try FixJournal.undo(root: tree.path)
        #expect(try Self.snapshot(tree.path) == before)
    }

    /// A journal is a file of the tree: one that names a path out of the root restores nothing.
    @Test func aHostileJournalRestoresNothing() throws {
        let tree = try Self.tree()
        let outside = try TempTree(["victim.txt": .text("mine\n")])
        let dir = tree.path + "/.reswatch/fix/20990101T000000.000Z-1"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "pwned\n".write(toFile: dir + "/0.orig", atomically: true, encoding: .utf8)
        let hostile = [
            "../../../../..\(outside.path)/victim.txt", "\(outside.path)/victim.txt",
        ]
        for path in hostile {
            let journal =
                "{\"version\":1,\"created\":\"x\",\"state\":\"applied\",\"changes\":[{\"kind\":\"write\",\"path\":\"\(path)\",\"backup\":\"0.orig\",\"newSize\":5,\"newHash\":\"0\"}]}"
            try journal.write(toFile: dir + "/journal.json", atomically: true, encoding: .utf8)
            #expect(throws: FixError.self, "\(path)") { try FixJournal.undo(root: tree.path) }
        }
        let backup =
            "{\"version\":1,\"created\":\"x\",\"state\":\"applied\",\"changes\":[{\"kind\":\"write\",\"path\":\"App/Info.plist\",\"backup\":\"../../../x\"}]}"
        try backup.write(toFile: dir + "/journal.json", atomically: true, encoding: .utf8)
        #expect(throws: FixError.self) { try FixJournal.undo(root: tree.path) }
        #expect(try String(contentsOfFile: outside.path + "/victim.txt", encoding: .utf8) == "mine\n")
    }

    @Test func aPathOutOfTheRootIsRefused() throws {
        let tree = try Self.tree()
        let outside = try TempTree(["x.json": .text("{}")])
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/App/out", withDestinationPath: outside.path)
        let finding = Diagnostic(rule: "x", severity: .error, root: tree.path, project: "", path: "App/out/x.json", message: "")
        for path in ["App/out/x.json", "App/../../x.json", "/etc/passwd"] {
            var plan = RepairPlan(root: tree.path)
            plan.repairs = [
                Repair(finding: finding, title: "t", changes: [.write(path: path, original: Array("{}".utf8), new: Array("[]".utf8))])
            ]
            #expect(throws: FixError.self, "\(path)") { try FixJournal.apply(plan) }
        }
        #expect(try String(contentsOfFile: outside.path + "/x.json", encoding: .utf8) == "{}")
    }

    /// The newest run's journal is garbage: undo says so and restores nothing, rather than undoing
    /// an older run over the newer one's files.
    @Test func anUnreadableNewestJournalStopsUndo() throws {
        let tree = try Self.tree()
        let journal = try FixJournal.apply(Self.plan(tree))
        let applied = try Self.snapshot(tree.path)
        let newer = tree.path + "/.reswatch/fix/20991231T235959.999Z-1"
        try FileManager.default.createDirectory(atPath: newer, withIntermediateDirectories: true)
        try "{\"version\":1,\"state\":".write(toFile: newer + "/journal.json", atomically: true, encoding: .utf8)
        #expect {
            try FixJournal.undo(root: tree.path)
        } throws: { ($0 as? FixError)?.description.contains("20991231T235959.999Z-1/journal.json cannot be read") == true }
        #expect(try Self.snapshot(tree.path) == applied, "nothing restored")
        // A run folder with no journal at all stopped before its first change: passed over.
        try FileManager.default.removeItem(atPath: newer + "/journal.json")
        #expect(try FixJournal.undo(root: tree.path).journal == journal)
    }

    /// A removed file comes back with its permission bits, never setuid, whatever the journal says;
    /// a removal whose saved original is gone is named, and the run stays undoable.
    @Test func aRemovedFileComesBackWithoutSpecialBitsAndAMissingOriginalIsNamed() throws {
        let tree = try Self.tree()
        let dir = tree.path + "/.reswatch/fix/20990101T000000.000Z-1"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "gone\n".write(toFile: dir + "/removed-0.orig", atomically: true, encoding: .utf8)
        let entries = [
            "{\"kind\":\"remove\",\"path\":\"App/gone.txt\",\"backup\":\"removed-0.orig\",\"newSize\":5,\"newHash\":\"0\",\"mode\":\(0o4777)}",
            "{\"kind\":\"remove\",\"path\":\"App/lost.txt\",\"backup\":\"removed-1.orig\",\"newSize\":5,\"newHash\":\"0\"}",
        ]
        try "{\"version\":1,\"created\":\"x\",\"state\":\"applied\",\"changes\":[\(entries.joined(separator: ","))]}".write(
            toFile: dir + "/journal.json", atomically: true, encoding: .utf8)
        let report = try FixJournal.undo(root: tree.path)
        #expect(report.restored == ["App/gone.txt"] && report.originalMissing == ["App/lost.txt"])
        #expect(try String(contentsOfFile: tree.path + "/App/gone.txt", encoding: .utf8) == "gone\n")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: tree.path + "/App/gone.txt")[.posixPermissions] as? Int)
        #expect(mode == 0o777, "permission bits only: \(String(mode, radix: 8))")
        let state = try String(contentsOfFile: dir + "/journal.json", encoding: .utf8)
        #expect(state.contains("\"state\":\"applied\""), "not marked undone while an original is missing")
    }
}
