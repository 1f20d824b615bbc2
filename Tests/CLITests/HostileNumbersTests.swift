import Foundation
import ImageFacts
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

/// Numbers from outside never trap: each out-of-range value is a finding or an error reply, and the
/// process carries on (issue 10, item 1). Run against the real binary.
@Suite struct HostileNumbersTests {
    @Test(arguments: ["1e19x1e19", "infxinf", "4e18x4e18", "nanxnan", "-5x-5", "1e308x1"])
    func aHugeOrNonFiniteSizeInContentsJsonIsAFinding(_ size: String) throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset/"
        let tree = try TempTree([
            set + "Contents.json": .text(
                "{\"images\":[{\"idiom\":\"iphone\",\"size\":\"\(size)\",\"scale\":\"2x\",\"filename\":\"a.png\"}]}"),
            set + "a.png": .png(PNGSpec(width: 8, height: 8)),
        ])
        let result = try runCommand(Repo.binary, ["check", "--format", "json", tree.path])
        #expect(result.status == 0 || result.status == 1, "exit \(result.status): \(result.stderr.prefix(300))")
        #expect(result.stdout.contains("\"icon.unassigned\""), "the entry maps to no valid slot")
    }

    @Test func aHugeUILaunchImageSizeIsAFinding() throws {
        let plist = """
            <?xml version="1.0"?><plist version="1.0"><dict><key>UILaunchImages</key><array><dict>
            <key>UILaunchImageName</key><string>Default</string><key>UILaunchImageMinimumOSVersion</key><string>7.0</string>
            <key>UILaunchImageSize</key><string>{1e300, 5}</string><key>UILaunchImageOrientation</key><string>Portrait</string>
            </dict></array></dict></plist>
            """
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"), "App/Info.plist": .text(plist),
            "App/Default@2x.png": .png(PNGSpec(width: 640, height: 960)),
        ])
        let result = try runCommand(Repo.binary, ["check", "--format", "json", tree.path])
        #expect(result.status == 1, "\(result.stderr.prefix(300))")
        #expect(result.stdout.contains("is not of the form {width, height}"))
    }

    @Test func aHugeNumberInARequestIsAnErrorReplyAndTheDaemonLives() throws {
        let tree = try TempTree(["A.imageset/Contents.json": .text("{\"images\":[]}")])
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        for number: Double in [1e300, -1e300, 9.3e18, 1.5] {
            do {
                _ = try daemon.call("sync", .object(["timeout_ms": .number(number)]))
                Issue.record("sync with timeout_ms \(number) was accepted")
            } catch ClientError.rpc(let e) {
                #expect(e.code == -32602, "invalid params for \(number)")
            }
        }
        #expect(try daemon.call("status")["roots"]?.array?.count == 1, "the daemon still answers")
    }

    @Test func outOfRangeModuleNumbersAreModuleErrors() throws {
        let dir = try TempTree([
            "timeout.yaml": .text(
                "rules:\n  - kind: exec\n    argv: [/bin/true]\n    timeout-ms: 9223372036854775807\n    rules: [{id: t.x}]\n"),
            "example.yaml": .text(
                "rules:\n  - kind: png-properties\nexamples:\n  - name: huge\n    files: {\"A.imageset/a.png\": {png: {width: -1, height: 99999999}}}\n    triggers: [image.corrupt]\n"
            ),
        ])
        let timeout = try runCommand(Repo.binary, ["rules", "check", dir.path + "/timeout.yaml"])
        #expect(timeout.status == 1 && timeout.stdout.contains("timeout-ms: 9223372036854775807 is outside 1…600000"), "\(timeout.stdout)")
        let example = try runCommand(Repo.binary, ["rules", "check", dir.path + "/example.yaml"])
        #expect(example.status == 1 && example.stdout.contains("width: -1 is outside 1…4096"), "\(example.stdout)")
    }
}
