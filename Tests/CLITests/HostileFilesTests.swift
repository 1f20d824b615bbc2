import Foundation
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

/// Files in a watched tree are hostile: a FIFO or device never blocks a read, and a link never
/// leads a read out of the checked root (issue 10, items 5 and 6). Run against the real binary;
/// `timeout` turns a hang into a failure instead of a stuck suite.
@Suite struct HostileFilesTests {
    func check(_ path: String) throws -> CommandResult {
        try runCommand("/usr/bin/timeout", ["30", Repo.binary, "check", "--format", "json", path])
    }

    @Test func fifosAndDevicesAreReportedNotRead() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text("{\"images\":[]}"),
        ])
        for name in ["App/Assets.xcassets/AppIcon.appiconset/Icon.png", "App/Icon@2x.png", "App/Info.plist"] {
            #expect(mkfifo(tree.path + "/" + name, 0o644) == 0)
        }
        #expect(symlink("/dev/zero", tree.path + "/App/Icon-72.png") == 0)
        let result = try check(tree.path)
        #expect(result.status == 1, "exit \(result.status) (124: it hung): \(result.stderr.prefix(300))")
        for name in ["Icon.png", "Icon@2x.png", "Info.plist"] {
            #expect(result.stdout.contains("\(name)") && result.stdout.contains("a FIFO (named pipe), not a regular file"), "\(name)")
        }
        #expect(result.stdout.contains("Icon-72.png") && result.stdout.contains("leads outside the checked root"), "/dev/zero is not read")
    }

    @Test func theDaemonIsNotWedgedByAFifo() throws {
        let tree = try TempTree(["A.xcassets/AppIcon.appiconset/Contents.json": .text("{\"images\":[]}")])
        #expect(mkfifo(tree.path + "/A.xcassets/AppIcon.appiconset/Icon.png", 0o644) == 0)
        let daemon = try DaemonHarness(roots: [tree.path])  // fails if the scan never finishes
        defer { _ = daemon.stop() }
        let lines = try daemon.diagnosticLines()
        #expect(lines.contains { $0.hasPrefix("io.unreadable") && $0.contains("FIFO") }, "\(lines)")
        try daemon.sync()
    }

    @Test func aLinkOutOfTheRootIsNotReadAndItsContentNeverShows() throws {
        let outside = try TempTree(["secret.json": .text("{\"images\": [TOP-SECRET-CONTENT")])
        let tree = try TempTree([
            "A.xcassets/In.imageset/real.json": .text("{\"images\":[]}"),
            "A.xcassets/Out.imageset/.keep": .text(""),
        ])
        #expect(symlink(outside.path + "/secret.json", tree.path + "/A.xcassets/Out.imageset/Contents.json") == 0)
        #expect(symlink("real.json", tree.path + "/A.xcassets/In.imageset/Contents.json") == 0)
        let result = try check(tree.path)
        #expect(!result.stdout.contains("TOP-SECRET") && !result.stderr.contains("TOP-SECRET"))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let found = (root["diagnostics"] as? [[String: Any]] ?? []).map { "\($0["rule"]!) \($0["path"]!) \($0["message"]!)" }
        #expect(
            found.contains {
                $0.hasPrefix("io.unreadable A.xcassets/Out.imageset/Contents.json") && $0.contains("leads outside the checked root")
            },
            "\(found)")
        #expect(!found.contains { $0.contains("In.imageset") }, "a link that stays inside is read: \(found)")
    }
}
