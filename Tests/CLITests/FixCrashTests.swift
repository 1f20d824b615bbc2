import Foundation
import TestSupport
import Testing

/// `fix --apply` killed part-way (SIGKILL: nothing of the process runs after it): every file is
/// whole, the old bytes or the new; the next `fix` says which changes were made; `--undo`
/// restores every byte and removes what an unfinished write left.
@Suite struct FixCrashTests {
    static let sample = Repo.root + "/Examples/SampleApp"

    /// The tree before, and after a whole `fix --apply` (the repairs are deterministic).
    static func beforeAndAfter() throws -> (before: [String: Data], after: [String: Data]) {
        let tree = try FixTrees.copy(sample)
        let before = FixTrees.snapshot(tree.path)
        #expect(try FixCommandTests.fix(["--apply", tree.path]).stdout.contains("applied 4 repair(s)"))
        return (before, FixTrees.snapshot(tree.path))
    }

    /// Each file is as before or as after, never anything else; the unfinished write of a killed
    /// run may be there too. Returns how many files are as after.
    static func everyFileIsWhole(_ now: [String: Data], before: [String: Data], after: [String: Data]) -> Int {
        var new = 0
        for (path, bytes) in now {
            if path.contains(".reswatch-tmp-") { continue }
            let old = before[path] == bytes
            let repaired = after[path] == bytes
            #expect(old || repaired, "\(path) is neither the old file nor the new one")
            if repaired && !old { new += 1 }
        }
        for path in before.keys where now[path] == nil {
            #expect(after[path] == nil, "\(path) vanished but a whole run keeps it")
        }
        return new
    }

    @Test func aRunKilledAfterEachChangeIsWholeSaysWhichAndIsUndone() throws {
        let (before, after) = try Self.beforeAndAfter()
        // SampleApp's plan: a rename (logo.png → logo.jpg), its Contents.json, three icons.
        for n in 0..<4 {
            let tree = try FixTrees.copy(Self.sample)
            var environment = ProcessInfo.processInfo.environment
            environment["RESWATCH_FAULT_KILL_AFTER_CHANGE"] = String(n)
            let killed = try runCommand(Repo.binary, ["fix", "--apply", tree.path], environment: environment)
            #expect(killed.status == SIGKILL && !killed.stdout.contains("applied"), "run \(n) was not stopped: \(killed.stdout)")
            let now = FixTrees.snapshot(tree.path)
            _ = Self.everyFileIsWhole(now, before: before, after: after)
            let plan = try FixCommandTests.fix([tree.path])
            #expect(plan.stdout.contains("stopped part-way: \(n + 1) of its 5 change(s) are made"), "\(plan.stdout)")
            #expect(plan.stdout.components(separatedBy: "\n  made: ").count - 1 == n + 1, "\(plan.stdout)")
            #expect(plan.stdout.components(separatedBy: "\n  not made: ").count - 1 == 4 - n, "\(plan.stdout)")
            let undo = try FixCommandTests.fix(["--undo", tree.path])
            #expect(undo.status == 0 && undo.stdout.contains("(a run that had stopped part-way)"), "\(undo.stdout)\(undo.stderr)")
            #expect(FixTrees.snapshot(tree.path) == before, "every byte restored after a kill after change \(n)")
            #expect(!(try FixCommandTests.fix([tree.path]).stdout.contains("stopped part-way")), "an undone run is not named again")
        }
    }

    /// The same with removals (--single-size drops 15 icons): a run killed among them names the
    /// removals made, and --undo puts every removed icon back.
    @Test func aSingleSizeRunKilledAmongItsRemovalsIsUndone() throws {
        for n in [4, 10] {
            let tree = try FixTrees.copy(Self.sample)
            let before = FixTrees.snapshot(tree.path)
            var environment = ProcessInfo.processInfo.environment
            environment["RESWATCH_FAULT_KILL_AFTER_CHANGE"] = String(n)
            let killed = try runCommand(Repo.binary, ["fix", "--apply", "--single-size", tree.path], environment: environment)
            #expect(killed.status == SIGKILL, "\(killed.stdout)")
            let plan = try FixCommandTests.fix(["--single-size", tree.path])
            #expect(plan.stdout.contains("stopped part-way: \(n + 1) of its"), "\(plan.stdout)")
            #expect(plan.stdout.contains("  made: remove SampleApp/Assets.xcassets/AppIcon.appiconset/"), "\(plan.stdout)")
            let undo = try FixCommandTests.fix(["--undo", tree.path])
            #expect(undo.status == 0, "\(undo.stderr)")
            #expect(FixTrees.snapshot(tree.path) == before, "every byte restored after a kill after change \(n)")
        }
    }

    /// Killed at moments spread over a whole run (a write may be cut between its temporary file
    /// and its rename): the same holds wherever the kill lands.
    @Test func aRunKilledAtAnyMomentLeavesWholeFilesAndIsUndone() throws {
        let (before, after) = try Self.beforeAndAfter()
        let start = Date()
        _ = try FixCommandTests.fix([try FixTrees.copy(Self.sample).path])
        let whole = Date().timeIntervalSince(start)
        for fraction in [0.6, 0.8, 0.9, 0.95, 1.0, 1.1] {
            let tree = try FixTrees.copy(Self.sample)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Repo.binary)
            process.arguments = ["fix", "--apply", tree.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: whole * fraction)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            _ = Self.everyFileIsWhole(FixTrees.snapshot(tree.path), before: before, after: after)
            let undo = try FixCommandTests.fix(["--undo", tree.path])
            #expect(undo.status == 0 || undo.stderr.contains("nothing to undo"), "\(undo.stdout)\(undo.stderr)")
            #expect(FixTrees.snapshot(tree.path) == before, "every byte restored after a kill at \(fraction) of a run")
        }
    }
}
