import Foundation
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

/// `reswatch daemon --config FILE`, on the real binary.
@Suite(.serialized) struct DaemonConfigTests {
    @Test func aConfigFileSetsRootsSettleAndTheLog() throws {
        let tree = try TempTree(["P/A.imageset/Contents.json": .text("{ broken")])
        let dir = try TempTree([
            "daemon.yaml": .text("roots: [\(tree.path)]\nsettle-ms: 7\nlog-file: events.jsonl\nexclude: [.git, Vendor]\n")
        ])
        let daemon = try DaemonHarness(roots: [], arguments: ["--config", dir.path + "/daemon.yaml"])
        let status = try daemon.call("status")
        #expect(status["settle_ms"]?.int == 7)
        #expect(status["roots"]?.array?.first?["path"]?.string == tree.path)
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("catalog.contents-invalid") })
        // log-file is relative to the config file's directory.
        #expect(FileManager.default.fileExists(atPath: dir.path + "/events.jsonl"))
    }

    @Test func commandLineOptionsWinOverTheFile() throws {
        let dir = try TempTree(["daemon.yaml": .text("settle-ms: 7\n")])
        let daemon = try DaemonHarness(roots: [], arguments: ["--config", dir.path + "/daemon.yaml", "--settle-ms", "3"])
        #expect(try daemon.call("status")["settle_ms"]?.int == 3)
    }

    @Test(arguments: [
        ("settle-ms: soon\n", "daemon.yaml:1: settle-ms: expected milliseconds"),
        ("roots: [a\n", "daemon.yaml:2: YAML syntax error"),
        ("root: [/tmp]\n", "daemon.yaml:1: unknown key 'root'"),
        ("roots: []\nmax-clients: 0\n", "daemon.yaml:2: max-clients: expected a whole number in 1…65536"),
        ("client-idle-timeout: 1e99\n", "daemon.yaml:1: client-idle-timeout: expected seconds"),
    ])
    func aBrokenConfigFileIsAClearErrorWithItsLine(_ body: String, _ expected: String) throws {
        let dir = try TempTree(["daemon.yaml": .text(body)])
        let result = try runCommand(Repo.binary, ["daemon", "--socket", dir.path + "/s.sock", "--config", dir.path + "/daemon.yaml"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test func aMissingConfigFileIsAClearError() throws {
        let result = try runCommand(Repo.binary, ["daemon", "--socket", "/tmp/rw-nocfg.sock", "--config", "/nonexistent/daemon.yaml"])
        #expect(result.status == 2 && result.stderr.contains("/nonexistent/daemon.yaml: cannot read: No such file or directory"))
    }
}
