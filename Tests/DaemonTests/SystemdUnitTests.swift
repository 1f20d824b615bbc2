import Foundation
import TestSupport
import Testing

/// systemd/reswatch.service is valid and hardened (systemd-analyze works on uninstalled units).
@Suite final class SystemdUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"

    func unitWithBuiltBinary() throws -> String {
        let text = try String(contentsOfFile: Repo.root + "/systemd/reswatch.service", encoding: .utf8)
        let dir = try TempTree()
        let path = dir.path + "/reswatch.service"
        try text.replacingOccurrences(of: "/usr/local/bin/reswatch", with: Repo.binary).write(
            toFile: path, atomically: true, encoding: .utf8)
        keep.append(dir)
        return path
    }
    var keep: [TempTree] = []

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is not installed"))
    func verifiesWithoutComplaints() throws {
        let result = try runCommand(Self.analyze, ["verify", try unitWithBuiltBinary()])
        // verify exits 0 even on bad values: any output on stderr is a failure.
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is not installed"))
    func isHardened() throws {
        let result = try runCommand(Self.analyze, ["security", "--offline=true", try unitWithBuiltBinary()])
        let line = try #require(result.stdout.split(separator: "\n").last { $0.contains("Overall exposure level") })
        let score = Double(line.split(separator: " ").first { Double($0) != nil } ?? "10") ?? 10
        #expect(score <= 2.0, "\(line)")
    }

    @Test func unitUsesTheNotifyProtocolTheDaemonSpeaks() throws {
        let text = try String(contentsOfFile: Repo.root + "/systemd/reswatch.service", encoding: .utf8)
        #expect(text.contains("Type=notify") && text.contains("WatchdogSec=") && text.contains("ExecReload=/bin/kill -HUP $MAINPID"))
    }
}
