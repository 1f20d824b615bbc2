import Daemon
import Foundation
import RuleKinds
import TestSupport
import Testing

/// The daemon's settings are declared once (`DaemonSettings.all`): the config file reader, the
/// example config, `--help` and docs/configuration.md come from that table.
@Suite struct DaemonSettingsTests {
    func configuration(_ text: String) throws -> (DaemonConfiguration, String) {
        let dir = try TempTree(["daemon.yaml": .text(text)])
        var c = DaemonConfiguration(socketPath: "/s", kinds: BuiltinKinds.registry)
        try c.apply(configFile: dir.path + "/daemon.yaml")
        return (c, dir.path)
    }

    @Test func theShippedExampleIsWhatTheTableMakes() throws {
        let shipped = try String(contentsOfFile: Repo.root + "/config/daemon.example.yaml", encoding: .utf8)
        #expect(shipped == DaemonSettings.exampleFile, "run docs/regenerate (make docs)")
    }

    @Test func theExampleIsAValidConfigWithEveryValueSetOrNot() throws {
        let example = DaemonSettings.exampleFile
        _ = try configuration(example)
        // Every key set: the commented-out values uncommented.
        let everything = example.split(separator: "\n").map { line in
            DaemonSettings.all.contains { $0.example.hasPrefix("# ") && line == $0.example } ? String(line.dropFirst(2)) : String(line)
        }.joined(separator: "\n")
        let (c, _) = try configuration(everything)
        #expect(c.socketGroup == "reswatch" && c.adminGroup == "reswatch-admin" && c.socketPath == "/run/reswatch/reswatch.sock")
        #expect(c.metricsFile != nil && c.logFile != nil && c.roots == ["/srv/checkouts/ios-app"])
        for setting in DaemonSettings.all {
            #expect(everything.contains("\n" + setting.key + ":"), "\(setting.key) has no value line in the example")
        }
    }

    @Test func anUnknownKeyNamesEveryKnownOne() {
        #expect {
            _ = try configuration("settle: 5\n")
        } throws: { error in
            "\(error)".hasSuffix(
                "daemon.yaml:1: unknown key 'settle' (known: \(DaemonConfiguration.fileKeys.sorted().joined(separator: ", ")))")
        }
        #expect(Set(DaemonConfiguration.fileKeys).count == DaemonSettings.all.count, "keys are unique")
    }

    @Test func theCommandLineAndTheFileAgreeOnRanges() throws {
        #expect(throws: (any Error).self) { try configuration("settle-ms: 60001\n") }
        let result = try runCommand(Repo.binary, ["daemon", "--settle-ms", "60001"])
        #expect(result.status == 2 && result.stderr.contains("--settle-ms must be 0…60000"), "a usage error (\(result.status))")
    }

    @Test func helpShowsEachOptionWithTheTablesWords() throws {
        let help = try runCommand(Repo.binary, ["daemon", "--help"]).stdout
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in DaemonSettings.all {
            if let option = setting.option {
                #expect(flat.contains("--\(option)") && flat.contains(setting.summary), "--\(option): \(setting.summary)")
            }
            #expect(flat.contains(setting.key), "--config's help names \(setting.key)")
        }
    }
}
