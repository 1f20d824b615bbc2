import Foundation
import RuleKit
import TestSupport
import Testing

/// Inputs of what a product ships that are not its own files, through the real daemon and inotify
/// (issues 58 and 59): a file `project.yml` includes, and the localized `InfoPlist.strings` of the
/// app's Info.plist. A save to either re-judges what depends on it, as a cold `check` would.
@Suite struct ProjectInputsWatchTests {
    static let plist = #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleName</key><string>App</string></dict></plist>"#

    static func rules(_ daemon: DaemonHarness) throws -> Set<String> {
        Set(try daemon.diagnosticLines().map { String($0.split(separator: " ")[0]) })
    }

    static func matchesColdCheck(_ daemon: DaemonHarness, _ tree: TempTree) throws -> Bool {
        let (_, cold) = checkDiagnostics([tree.path])
        return try daemon.diagnosticLines() == cold.map { "\($0["rule"] ?? "") \($0["path"] ?? "") \($0["message"] ?? "")" }.sorted()
    }

    static func targets(type: String) -> ExampleFile {
        .text("targets:\n  App:\n    type: \(type)\n    platform: iOS\n    info:\n      path: ../App/Info.plist\n")
    }

    /// The included file decides the target's type: a framework's Info.plist is no app's; saved as
    /// an application, the app's rules judge it; and back.
    @Test func aSavedIncludedFileRederivesTheTarget() throws {
        let tree = try TempTree([
            "project.yml": .text("name: App\ninclude: [config/targets.yml]\n"),
            "config/targets.yml": Self.targets(type: "framework"),
            "App/Info.plist": .text(Self.plist),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        var rules = try Self.rules(daemon)
        #expect(!rules.contains("launch.missing"), "a framework's Info.plist is not an app's: \(rules)")

        try tree.write(["config/targets.yml": Self.targets(type: "application")])
        try daemon.sync()
        rules = try Self.rules(daemon)
        #expect(rules.contains("launch.missing"), "the included file made it an app: \(rules)")
        #expect(try Self.matchesColdCheck(daemon, tree))

        try tree.write(["config/targets.yml": Self.targets(type: "framework")])
        try daemon.sync()
        rules = try Self.rules(daemon)
        #expect(!rules.contains("launch.missing"), "a framework again: \(rules)")
        #expect(try Self.matchesColdCheck(daemon, tree))
    }

    /// A localization of the app's Info.plist: a dead key comes and goes with the saves of the
    /// `.strings` file and of the Info.plist it localizes; a lower-case `infoPlist.strings` is said.
    @Test func savedLocalizationsAreRejudged() throws {
        let tree = try TempTree([
            "App/Info.plist": .text(Self.plist),
            "App/fr.lproj/InfoPlist.strings": .text("\"CFBundleName\" = \"Appli\";\n"),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        #expect(!(try Self.rules(daemon)).contains("lproj.infoplist-unknown-key"))

        try tree.write(["App/fr.lproj/InfoPlist.strings": .text("\"CFBundleName\" = \"Appli\";\n\"NSCameraUsageDescription\" = \"x\";\n")])
        try daemon.sync()
        #expect(try Self.rules(daemon).contains("lproj.infoplist-unknown-key"), "a key the Info.plist lacks")

        // The Info.plist gains the key: the localization is right again.
        try tree.write([
            "App/Info.plist": .text(
                #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleName</key><string>App</string><key>NSCameraUsageDescription</key><string>Scans receipts.</string></dict></plist>"#
            )
        ])
        try daemon.sync()
        #expect(!(try Self.rules(daemon)).contains("lproj.infoplist-unknown-key"))

        try tree.write(["App/de.lproj/infoPlist.strings": .text("\"CFBundleName\" = \"App\";\n")])
        try daemon.sync()
        #expect(try Self.rules(daemon).contains("lproj.infoplist-name-case"))
        #expect(try Self.matchesColdCheck(daemon, tree))
    }
}
