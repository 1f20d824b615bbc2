import Foundation
import TestSupport
import Testing

/// `--rules DIR` is one option shared by every command that loads rules: each refuses a
/// directory that is not there in the same words, before doing anything.
@Suite struct ExtraRulesTests {
    @Test(arguments: [["check"], ["fix"], ["daemon"], ["rules", "list"], ["rules", "explain", "icon.size-mismatch"]])
    func aMissingDirectoryIsAUsageError(_ command: [String]) throws {
        let result = try runCommand(Repo.binary, command + ["--rules", "/nonexistent/rules.d"])
        #expect(result.status == 2, "\(command): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--rules /nonexistent/rules.d: not a directory"), "\(command): \(result.stderr)")
    }
}
