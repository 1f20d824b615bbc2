import Foundation
import TestSupport
import Testing

/// `reswatch fix`'s flags as the process reads them: a usage error or a fix that cannot run exits
/// 2 with the reason (the repairs themselves are FixRunTests', in-process).
@Suite struct FixCommandTests {
    static func fix(_ arguments: [String]) throws -> CommandResult { try runCommand(Repo.binary, ["fix"] + arguments) }

    @Test func usageErrorsExitTwo() throws {
        let only = try Self.fix(["--only", "plist.icon-name-mising", Repo.root + "/Examples/SampleApp"])
        #expect(only.status == 2 && only.stderr.contains("did you mean plist.icon-name-missing?"), "\(only.stderr)")
        let both = try Self.fix(["--apply", "--undo", Repo.root + "/Examples/SampleApp"])
        #expect(both.status == 2 && both.stderr.contains("--apply and --undo do not go together"))
        // Nothing checked is never "nothing left to fix": an empty folder, or rules that did not load.
        let nothing = try TempTree(["notes.txt": .text("hello\n")])
        let empty = try Self.fix([nothing.path])
        #expect(empty.status == 2 && empty.stderr.contains("nothing to check, so nothing was checked or repaired"), "\(empty.stderr)")
        let modules = try TempTree(["x.yaml": .text("- kind: nope\n")])
        let broken = try Self.fix(["--rules", modules.path, Repo.root + "/Examples/SampleApp"])
        #expect(broken.status == 2 && broken.stderr.contains("1 rule module error(s)"), "\(broken.stderr)")
        let colour = try Self.fix(["--background", "pink", Repo.root + "/Examples/SampleApp"])
        #expect(colour.status == 2 && colour.stderr.contains("--background pink: not a colour"), "\(colour.stderr)")
        let undoSingle = try Self.fix(["--undo", "--single-size", Repo.root + "/Examples/SampleApp"])
        #expect(undoSingle.status == 2 && undoSingle.stderr.contains("--single-size"), "\(undoSingle.stderr)")
    }
}
