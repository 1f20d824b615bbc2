import Foundation
import RuleEngine
import TestSupport
import Testing

/// Required-reason APIs in sources, through the real binary and the daemon: found on the line of
/// the first use, followed as sources and the manifest change, and hostile sources are skipped
/// with a stated reason.
@Suite struct PrivacySourcesTests {
    static let declaresDefaults = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSPrivacyAccessedAPITypes</key><array><dict>
        <key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>
        <key>NSPrivacyAccessedAPITypeReasons</key><array><string>CA92.1</string></array></dict></array></dict></plist>
        """

    @Test func theDaemonFollowsSourcesAndTheManifest() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Sources/Settings.swift": .text("import Foundation\n\nlet defaults = UserDefaults.standard\n"),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        var lines = try daemon.diagnosticLines()
        #expect(lines.contains { $0.hasPrefix("privacy.manifest-missing App/Sources/Settings.swift") }, "\(lines)")
        // The manifest arrives, declaring UserDefaults: the finding goes.
        try Data(Self.declaresDefaults.utf8).write(to: URL(fileURLWithPath: tree.path + "/App/PrivacyInfo.xcprivacy"))
        try daemon.sync()
        lines = try daemon.diagnosticLines()
        #expect(!lines.contains { $0.hasPrefix("privacy.") }, "\(lines)")
        // A new source uses the boot time: undeclared, named on the manifest with its file and line.
        try Data("import Darwin\nlet t = mach_absolute_time()\n".utf8).write(
            to: URL(fileURLWithPath: tree.path + "/App/Sources/Clock.swift"))
        try daemon.sync()
        lines = try daemon.diagnosticLines()
        #expect(
            lines.contains {
                $0.hasPrefix("privacy.api-undeclared App/PrivacyInfo.xcprivacy")
                    && $0.contains("mach_absolute_time in App/Sources/Clock.swift:2")
            }, "\(lines)")
        // The call is commented out: nothing is used, nothing is said.
        try Data("import Darwin\n// let t = mach_absolute_time()\n".utf8).write(
            to: URL(fileURLWithPath: tree.path + "/App/Sources/Clock.swift"))
        try daemon.sync()
        lines = try daemon.diagnosticLines()
        #expect(!lines.contains { $0.hasPrefix("privacy.") }, "\(lines)")
    }

    @Test func hostileSourcesAreSkippedWithAReason() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Sources/Big.swift": .text(""),
            "App/Sources/Ok.swift": .text("let d = UserDefaults.standard\n"),
        ])
        #expect(truncate(tree.path + "/App/Sources/Big.swift", 100 << 20) == 0)
        #expect(mkfifo(tree.path + "/App/Sources/Pipe.swift", 0o644) == 0)
        #expect(symlink("/etc/hostname", tree.path + "/App/Sources/Out.swift") == 0)
        let (result, diagnostics) = checkDiagnostics([tree.path + "/App"]) { $0.failOn = .never }
        #expect(result.status == 0, "\(result.stderr)")
        func said(_ file: String) -> String? {
            diagnostics.first { $0["path"] as? String == "Sources/\(file)" && $0["rule"] as? String == "io.unreadable" }?["message"]
                as? String
        }
        #expect(said("Big.swift")?.contains("not scanned for required-reason APIs: larger than 8 MiB") == true, "\(diagnostics)")
        #expect(said("Pipe.swift")?.contains("a FIFO") == true, "\(diagnostics)")
        #expect(said("Out.swift")?.contains("outside the checked root") == true, "\(diagnostics)")
        #expect(diagnostics.contains { $0["rule"] as? String == "privacy.manifest-missing" }, "the readable source is still judged")
    }
}
