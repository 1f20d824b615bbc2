import Foundation
import RuleEngine
import TestSupport
import Testing

/// The binary carries its rules: copied alone anywhere it checks exactly as in the source tree,
/// and whenever no rule is in force it says so and fails instead of reporting "no problems".
@Suite struct SelfContainedBinaryTests {
    static let example = Repo.root + "/Examples/SampleApp"

    func diagnostics(_ result: CommandResult) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let list = try #require(object["diagnostics"] as? [[String: Any]])
        return list.map { "\($0["rule"]!) \($0["path"]!) \($0["message"]!)" }
    }

    @Test func aCopiedBinaryAloneChecksLikeTheSourceTreeRules() throws {
        let alone = try TempTree()
        let copy = alone.path + "/reswatch"
        // Copied by a child process: a write descriptor held here could leak into a process another
        // test spawns at that moment, and exec would then fail with ETXTBSY.
        #expect(try runCommand("/bin/cp", [Repo.binary, copy]).status == 0)
        var env = ProcessInfo.processInfo.environment
        env["RESWATCH_SHIPPED_RULES"] = nil
        env["XDG_CONFIG_HOME"] = alone.path  // no user modules
        let copied = try runCommand(copy, ["check", "--format", "json", Self.example], environment: env)
        env["RESWATCH_SHIPPED_RULES"] = Repo.shippedRules  // the rules/ folder of the source tree
        let fromTree = try runCommand(Repo.binary, ["check", "--format", "json", Self.example], environment: env)
        #expect(copied.status == 1, "\(copied.stderr)")
        let found = try diagnostics(copied)
        #expect(found.count >= 7, "the example's deliberate defects are found")
        #expect(found == (try diagnostics(fromTree)))
    }

    @Test func noRuleInForceExitsTwoWithTheReason() throws {
        var env = ProcessInfo.processInfo.environment
        env["RESWATCH_SHIPPED_RULES"] = "/nonexistent/rules"
        let missing = try runCommand(Repo.binary, ["check", Self.example], environment: env)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no rule is in force"))
        #expect(missing.stderr.contains("RESWATCH_SHIPPED_RULES /nonexistent/rules cannot be read: No such file or directory"))
        #expect(!missing.stdout.contains("no problems"))

        let broken = try TempTree(["only.yaml": .text("rules: [ {kind: no-such-kind} ]\n")])
        env["RESWATCH_SHIPPED_RULES"] = broken.path
        let allBroken = try runCommand(Repo.binary, ["check", Self.example], environment: env)
        #expect(allBroken.status == 2 && allBroken.stderr.contains("no rule is in force"))
        #expect(allBroken.stderr.contains("only.yaml:1: unknown kind 'no-such-kind'"))

        let empty = try TempTree()
        env["RESWATCH_SHIPPED_RULES"] = empty.path
        #expect(try runCommand(Repo.binary, ["rules", "list"], environment: env).status == 2)
    }

    @Test func theDaemonRefusesToStartWithoutRules() throws {
        let dir = try TempTree()
        var env = ProcessInfo.processInfo.environment
        env["RESWATCH_SHIPPED_RULES"] = dir.path
        let result = try runCommand(Repo.binary, ["daemon", "--socket", dir.path + "/s.sock", Self.example], environment: env)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no rule is in force"))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/s.sock"), "no socket was served")
    }
}
