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

/// A valid PNG too large to decode is not corrupt (issue 10, item 13): full-decode says its
/// pixels were not checked.
@Suite struct HugePNGTests {
    @Test func aValid20000SquarePNGIsNotCalledCorrupt() throws {
        let tree = try TempTree([
            "A.imageset/Contents.json": .text("{\"images\":[{\"idiom\":\"universal\",\"filename\":\"big.png\"}]}"),
            "rules/full.yaml": .text("rules:\n  - kind: png-properties\n    full-decode: true\n"),
        ])
        // 20000x20000 RGB, deflated row by row (1.2 MB on disk, 1.2 GB of pixels).
        let script = #"""
            import struct, sys, zlib
            w = h = 20000
            c = zlib.compressobj(9); row = b'\x00' + b'\x80' * (3 * w)
            data = b''.join(c.compress(row) for _ in range(h)) + c.flush()
            ch = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            png = b'\x89PNG\r\n\x1a\n' + ch(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + ch(b'IDAT', data) + ch(b'IEND', b'')
            open(sys.argv[1], 'wb').write(png)
            """#
        let made = try runCommand("/usr/bin/env", ["python3", "-c", script, tree.path + "/A.imageset/big.png"])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try runCommand(Repo.binary, ["check", "--no-color", "--rules", tree.path + "/rules", tree.path])
        #expect(!result.stdout.contains("image.corrupt"), "\(result.stdout)")
        #expect(result.stdout.contains("PNG pixels not checked: 20000x20000 pixels exceed the decode limit"))
    }
}
