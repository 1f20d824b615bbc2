import Foundation
import ImageFacts
import ReswatchProtocol
import TestSupport
import Testing

/// reswatch does not follow links to folders (inotify does not watch through them). A link named as
/// a resource folder is said to be unchecked (`io.unreadable` at the link), and its name still
/// counts, so the project is not told that the set Info.plist names does not exist. Links under
/// other names, and links to files, are not flagged.
@Suite struct LinkedFolderTests {
    static let plist =
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIconName</key><string>AppIcon</string></dict></plist>"#

    static func tree() throws -> TempTree {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Info.plist": .text(plist),
            "App/Assets.xcassets/Real.imageset/Contents.json": .text(#"{"images":[]}"#),
            "Shared/AppIcon.appiconset/Contents.json": .text(#"{"images":[]}"#),
            "Shared/Vendor/readme.txt": .text("x"),
            "Shared/icon.png": .png(PNGSpec(width: 2, height: 2)),
        ])
        #expect(symlink("../../Shared/AppIcon.appiconset", tree.path + "/App/Assets.xcassets/AppIcon.appiconset") == 0)
        #expect(symlink("../Shared/Vendor", tree.path + "/App/Vendor") == 0)  // not a resource folder's name
        #expect(symlink("/etc", tree.path + "/App/Assets.xcassets/Etc.imageset") == 0)  // out of the tree
        #expect(symlink("../../../Shared/icon.png", tree.path + "/App/Assets.xcassets/Real.imageset/Link.imageset") == 0)  // a file
        return tree
    }

    @Test func aLinkedResourceFolderIsSaidNotCheckedAndItsNameCounts() throws {
        let tree = try Self.tree()
        let result = checkDiagnostics([tree.path + "/App"]).result
        #expect(result.status == 1, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = try #require(object?["diagnostics"] as? [[String: Any]])
        let unreadable = diagnostics.filter { $0["rule"] as? String == "io.unreadable" }
        #expect(
            unreadable.compactMap { $0["path"] as? String }.sorted() == [
                "Assets.xcassets/AppIcon.appiconset", "Assets.xcassets/Etc.imageset",
            ],
            "\(unreadable)")
        #expect(!result.stdout.contains("/etc") && !result.stdout.contains("passwd"), "nothing of the link's target is shown")
        #expect((unreadable.first?["message"] as? String)?.contains("a symbolic link to a folder, which reswatch does not follow") == true)
        #expect(!diagnostics.contains { $0["rule"] as? String == "icon.set-missing" }, "the set Info.plist names is there: \(diagnostics)")
    }

    @Test func theDaemonSaysItWhenALinkComesAndForgetsItWhenItGoes() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Assets.xcassets/Real.imageset/Contents.json": .text(#"{"images":[]}"#),
            "Shared/Set.imageset/Contents.json": .text(#"{"images":[]}"#),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        #expect(try !daemon.diagnosticLines().contains { $0.hasPrefix("io.unreadable") })
        let link = tree.path + "/App/Assets.xcassets/Linked.imageset"
        #expect(symlink("../../Shared/Set.imageset", link) == 0)
        try daemon.sync()
        let linked = try daemon.diagnosticLines()
        #expect(linked.contains { $0.hasPrefix("io.unreadable App/Assets.xcassets/Linked.imageset ") }, "\(linked)")
        // Replaced by a real folder: checked, and the finding goes.
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createDirectory(atPath: link, withIntermediateDirectories: false)
        try Data(#"{"images":[]}"#.utf8).write(to: URL(fileURLWithPath: link + "/Contents.json"))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: link + "/a.png"))
        try daemon.sync()
        let real = try daemon.diagnosticLines()
        #expect(!real.contains { $0.hasPrefix("io.unreadable") }, "\(real)")
        #expect(
            real.contains { $0.hasPrefix("image.not-png App/Assets.xcassets/Linked.imageset/a.png") }, "the real folder is checked: \(real)"
        )
    }
}
