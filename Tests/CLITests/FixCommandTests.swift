import Foundation
import RuleEngine
import TestSupport
import Testing

/// `reswatch fix` with the real binary: the plan changes nothing, --apply repairs and changes
/// nothing else, --undo restores every byte; on copies of the real apps too.
@Suite struct FixCommandTests {
    static func fix(_ arguments: [String]) throws -> CommandResult { try runCommand(Repo.binary, ["fix"] + arguments) }

    /// Every file under `root` but the journal's.
    static func snapshot(_ root: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard !path.hasPrefix(".reswatch/fix"), FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue, let data = FileManager.default.contents(atPath: root + "/" + path)
            else { continue }
            out[path] = data
        }
        return out
    }

    static func copy(_ source: String) throws -> TempTree {
        let tree = try TempTree()
        #expect(try runCommand("/bin/cp", ["-a", source + "/.", tree.path]).status == 0)
        return tree
    }

    @Test func thePlanChangesNothingApplyRepairsUndoRestores() throws {
        let tree = try Self.copy(Repo.root + "/Examples/SampleApp")
        let before = Self.snapshot(tree.path)
        let plan = try Self.fix([tree.path])
        #expect(plan.status == 1, "findings remain: \(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("1 repair (a plan: nothing is changed; --apply carries it out)"))
        #expect(plan.stdout.contains("-      \"filename\": \"logo.png\",\n   +      \"filename\": \"logo.jpg\","), "\(plan.stdout)")
        #expect(plan.stdout.contains("[plist.orientations]: your choice: support rotation on iPad"))
        #expect(Self.snapshot(tree.path) == before, "a plan changes nothing")
        let applied = try Self.fix(["--apply", tree.path])
        #expect(applied.stdout.contains("applied 1 repair(s)"), "\(applied.stdout)\(applied.stderr)")
        let after = Self.snapshot(tree.path)
        let changed = Set(after.keys).symmetricDifference(before.keys).union(
            before.keys.filter { after[$0] != nil && after[$0] != before[$0] })
        #expect(
            changed
                == [
                    "SampleApp/Assets.xcassets/Logo.imageset/logo.png", "SampleApp/Assets.xcassets/Logo.imageset/logo.jpg",
                    "SampleApp/Assets.xcassets/Logo.imageset/Contents.json",
                ], "only what the plan named")
        let check = try checkDiagnostics([tree.path])
        #expect(!check.diagnostics.contains { $0["rule"] as? String == "image.not-png" })
        let undo = try Self.fix(["--undo", tree.path])
        #expect(undo.status == 0 && undo.stdout.contains("restored 2 file(s)"), "\(undo.stdout)\(undo.stderr)")
        #expect(Self.snapshot(tree.path) == before, "every byte restored")
        let again = try Self.fix(["--undo", tree.path])
        #expect(again.status == 2 && again.stderr.contains("nothing to undo"))
    }

    @Test func usageErrorsExitTwo() throws {
        let only = try Self.fix(["--only", "plist.icon-name-mising", Repo.root + "/Examples/SampleApp"])
        #expect(only.status == 2 && only.stderr.contains("did you mean plist.icon-name-missing?"), "\(only.stderr)")
        let both = try Self.fix(["--apply", "--undo", Repo.root + "/Examples/SampleApp"])
        #expect(both.status == 2 && both.stderr.contains("--apply and --undo do not go together"))
    }

    @Test func onlyLimitsTheRepairs() throws {
        let tree = try Self.copy(Repo.root + "/Examples/SampleApp")
        let plan = try Self.fix(["--only", "icon.unassigned", tree.path])
        #expect(plan.stdout.hasPrefix("\(tree.path): 0 repairs"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("logo.jpg"))
    }

    /// The real apps: after --apply nothing fixable is left, files the plan did not name are
    /// byte-identical, and --undo restores every byte.
    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"))
    func onCopiesOfTheRealApps() throws {
        var repaired = 0
        for app in try FileManager.default.contentsOfDirectory(atPath: Repo.corpus).filter({ !$0.hasSuffix(".md") }).sorted() {
            let tree = try Self.copy(Repo.corpus + "/" + app)
            let before = Self.snapshot(tree.path)
            _ = try Self.fix(["--apply", tree.path])
            let again = try Self.fix([tree.path])
            #expect(again.stdout.hasPrefix("\(tree.path): 0 repairs"), "\(app): something fixable is left: \(again.stdout)")
            let after = Self.snapshot(tree.path)
            let journals = (try? FileManager.default.contentsOfDirectory(atPath: tree.path + "/.reswatch/fix")) ?? []
            var named = Set<String>()
            for journal in journals {
                let data = try Data(contentsOf: URL(fileURLWithPath: tree.path + "/.reswatch/fix/" + journal + "/journal.json"))
                let changes = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["changes"] as? [[String: Any]] ?? []
                for change in changes { named.formUnion([change["path"] as? String, change["to"] as? String].compactMap { $0 }) }
            }
            repaired += named.count
            for (path, data) in before where !named.contains(path) { #expect(after[path] == data, "\(app): \(path) changed") }
            if !journals.isEmpty { _ = try Self.fix(["--undo", tree.path]) }
            #expect(Self.snapshot(tree.path) == before, "\(app): undo restores every byte")
        }
        #expect(repaired >= 2, "the corpus has repairs to make (HomeAssistant's and NetNewsWire's CFBundleIconName)")
    }
}
