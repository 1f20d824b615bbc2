import Foundation
import ImageFacts
import TestSupport
import Testing

/// Xcode 26 Icon Composer icons on a real app (IceCubesApp at 0fc41d2c: `AppIcon.icon` is a
/// `folder.iconcomposer.icon` resource of the app target, and no `.appiconset` exists), its
/// unseen variants (the .icon left out of the target, added as a plain folder, a layer gone),
/// hostile bundles, and the daemon following a bundle as it changes.
@Suite struct IconComposerTests {
    static let app = "IceCubesApp-2026"

    static func findings(_ path: String) throws -> (status: Int32, diagnostics: [[String: Any]]) {
        let (result, diagnostics) = checkDiagnostics([path])
        return (result.status, diagnostics)
    }

    static func rules(_ diagnostics: [[String: Any]]) -> [String] { diagnostics.compactMap { $0["rule"] as? String }.sorted() }

    /// A writable copy of the corpus app (the corpus itself stays read-only).
    static func copy() throws -> TempTree {
        let tree = try TempTree([:])
        let result = try runCommand("/bin/cp", ["-R", Repo.corpus + "/" + app, tree.path + "/app"])
        #expect(result.status == 0, "\(result.stderr)")
        _ = try runCommand("/bin/chmod", ["-R", "u+w", tree.path + "/app"])
        return tree
    }

    static func edit(_ file: String, _ change: (String) -> String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let changed = change(text)
        #expect(changed != text, "the edit of \(file) changed nothing")
        try Data(changed.utf8).write(to: URL(fileURLWithPath: file))
    }

    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone"))
    func theRealAppsIconComposerIconIsItsIcon() throws {
        let (status, diagnostics) = try Self.findings(Repo.corpus + "/" + Self.app)
        let about = diagnostics.filter { ($0["rule"] as? String).map { $0.hasPrefix("icon.") || $0.hasPrefix("iconcomposer.") } ?? false }
        #expect(about.isEmpty, "\(about)")
        #expect(!diagnostics.contains { $0["severity"] as? String == "error" }, "\(diagnostics)")
        #expect(status == 0)
    }

    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone"))
    func leftOutOfTheTargetOrAddedAsAFolderIsNotInTarget() throws {
        let tree = try Self.copy()
        let pbxproj = tree.path + "/app/IceCubesApp.xcodeproj/project.pbxproj"
        let original = try String(contentsOfFile: pbxproj, encoding: .utf8)
        // Added as a plain folder: the reference keeps its place in the Resources phase.
        try Self.edit(pbxproj) {
            $0.replacingOccurrences(of: "lastKnownFileType = folder.iconcomposer.icon;", with: "lastKnownFileType = folder;")
        }
        var (_, diagnostics) = try Self.findings(tree.path + "/app")
        #expect(Self.rules(diagnostics).filter { $0.hasPrefix("icon") } == ["iconcomposer.not-in-target"], "\(diagnostics)")
        let finding = try #require(diagnostics.first { $0["rule"] as? String == "iconcomposer.not-in-target" })
        #expect((finding["message"] as? String)?.contains("bundles it as 'folder'") == true, "\(finding)")
        #expect(finding["path"] as? String == "IceCubesApp.xcodeproj/project.pbxproj" && finding["line"] as? Int == 1059, "\(finding)")
        // Out of the Resources phase altogether.
        try Data(original.utf8).write(to: URL(fileURLWithPath: pbxproj))
        try Self.edit(pbxproj) {
            $0.replacingOccurrences(of: "\t\t\t\tE9DB78982E004E4C004EAC2E /* AppIcon.icon in Resources */,\n", with: "")
        }
        (_, diagnostics) = try Self.findings(tree.path + "/app")
        #expect(Self.rules(diagnostics).filter { $0.hasPrefix("icon") } == ["iconcomposer.not-in-target"], "\(diagnostics)")
    }

    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone"))
    func aLayerWhoseNameHasSpacesIsLookedUpAsWritten() throws {
        let tree = try Self.copy()
        let assets = tree.path + "/app/AlternateIcons/AppIconAlternate2.icon/Assets"
        let layers = try FileManager.default.contentsOfDirectory(atPath: assets).filter { $0.contains(" ") }.sorted()
        let gone = try #require(layers.first)
        try FileManager.default.removeItem(atPath: assets + "/" + gone)
        let (_, diagnostics) = try Self.findings(tree.path + "/app")
        let missing = diagnostics.filter { $0["rule"] as? String == "iconcomposer.asset-missing" }
        #expect(missing.count == 1, "\(diagnostics)")
        #expect((missing.first?["message"] as? String)?.contains("'\(gone)'") == true, "\(missing)")
        #expect(missing.first?["path"] as? String == "AlternateIcons/AppIconAlternate2.icon/icon.json")
        #expect((missing.first?["line"] as? Int ?? 0) > 1, "the line of the layer that names it: \(missing)")
    }

    /// A binary icon.json, a FIFO named icon.json, a link out of the tree, a linked bundle and a
    /// 2 GB layer: each is a precise finding; nothing hangs, nothing outside the root is read.
    @Test func hostileBundlesGetPreciseFindings() throws {
        let bundle =
            "{\"groups\":[{\"layers\":[{\"image-name\":\"a.png\",\"name\":\"a\"}]}],\"supported-platforms\":{\"squares\":\"shared\"}}"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\napp-icon: Binary\n"),
            "App/Binary.icon/icon.json": .bytes([0, 0xFF, 0xFE, 0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0, 1]),
            "App/Fifo.icon/Assets/a.png": .png(PNGSpec(width: 4, height: 4)),
            "App/Out.icon/Assets/a.png": .png(PNGSpec(width: 4, height: 4)),
            "App/Big.icon/icon.json": .text(bundle),
            "App/Big.icon/Assets/a.png": .text(""),
        ])
        #expect(mkfifo(tree.path + "/App/Fifo.icon/icon.json", 0o644) == 0)
        #expect(symlink("/etc/hostname", tree.path + "/App/Out.icon/icon.json") == 0)
        #expect(symlink("/etc", tree.path + "/App/Linked.icon") == 0)
        // A sparse 2 GB layer: no disk is spent, and reswatch must not read it whole.
        #expect(truncate(tree.path + "/App/Big.icon/Assets/a.png", 2 << 30) == 0)
        let (result, diagnostics) = checkDiagnostics([tree.path + "/App"])
        #expect(result.status == 1, "\(result.stderr)")
        func finding(_ path: String) -> String? {
            diagnostics.first { $0["path"] as? String == path }.map { "\($0["rule"] ?? "") \($0["message"] ?? "")" }
        }
        let binary = finding("Binary.icon/icon.json") ?? ""
        #expect(binary.hasPrefix("iconcomposer.json-invalid icon.json of Binary.icon is not JSON"), "\(diagnostics)")
        #expect(finding("Fifo.icon/icon.json")?.contains("io.unreadable icon.json cannot be read: a FIFO") == true, "\(diagnostics)")
        #expect(finding("Out.icon/icon.json")?.contains("leads outside the checked root") == true, "\(diagnostics)")
        #expect(finding("Linked.icon")?.contains("a symbolic link to a folder") == true, "\(diagnostics)")
        #expect(finding("Big.icon/Assets/a.png")?.hasPrefix("io.unreadable") == true, "\(diagnostics)")
        #expect(!result.stdout.contains("passwd") && !result.stdout.contains("localhost"), "nothing of a link's target is shown")
        // The app icon names a bundle that exists (though broken): no icon.set-missing on top.
        #expect(!diagnostics.contains { $0["rule"] as? String == "icon.set-missing" }, "\(diagnostics)")
    }

    /// A Tuist project: the manifest's resources glob holds the .icon (Tuist's recommended
    /// settings name the icon AppIcon); a name no icon has is said at the manifest's line.
    @Test func aTuistProjectsIconComposerIcon() throws {
        func manifest(_ icon: String) -> String {
            """
            import ProjectDescription
            let project = Project(name: "App", targets: [
                .target(name: "App", destinations: [.iPhone], product: .app, bundleId: "x",
                        deploymentTargets: .iOS("18.0"), infoPlist: "App/Info.plist", resources: ["App/Resources/**"],
                        settings: .settings(base: ["ASSETCATALOG_COMPILER_APPICON_NAME": "\(icon)"]))
            ])
            """
        }
        let bundle = "{\"groups\":[{\"layers\":[]}],\"supported-platforms\":{\"squares\":\"shared\"}}"
        let tree = try TempTree([
            "Project.swift": .text(manifest("AppIcon")),
            "App/Info.plist": .text(
                #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleName</key><string>A</string></dict></plist>"#),
            "App/Resources/AppIcon.icon/icon.json": .text(bundle),
        ])
        var (_, diagnostics) = try Self.findings(tree.path)
        #expect(!Self.rules(diagnostics).contains { $0.hasPrefix("icon.") || $0.hasPrefix("iconcomposer.") }, "\(diagnostics)")
        try Data(manifest("Brand").utf8).write(to: URL(fileURLWithPath: tree.path + "/Project.swift"))
        (_, diagnostics) = try Self.findings(tree.path)
        let missing = try #require(diagnostics.first { $0["rule"] as? String == "icon.set-missing" }, "\(diagnostics)")
        #expect(missing["path"] as? String == "Project.swift" && missing["line"] as? Int == 5, "\(missing)")
    }

    /// An icon.json naming 50,000 layers that are not there: the first 50 are listed and the
    /// rest counted, not 50,000 findings each searching the file for its line.
    @Test func aBundleNamingFiftyThousandMissingLayersIsCutShort() throws {
        let layers = (0..<50_000).map { "{\"image-name\":\"l\($0).png\",\"name\":\"x\"}" }.joined(separator: ",")
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Many.icon/icon.json": .text("{\"groups\":[{\"layers\":[\(layers)]}],\"supported-platforms\":{\"squares\":\"shared\"}}"),
        ])
        let (_, diagnostics) = try Self.findings(tree.path + "/App")
        let missing = diagnostics.filter { $0["rule"] as? String == "iconcomposer.asset-missing" }
        #expect(missing.count == 51, "\(missing.count)")
        #expect(
            missing.contains { ($0["message"] as? String)?.hasSuffix("49950 more layer files are not in Assets/ (not listed)") == true })
    }

    @Test func theDaemonFollowsABundleAsItChanges() throws {
        let json =
            "{\"groups\":[{\"layers\":[{\"image-name\":\"Front Layer.png\",\"name\":\"f\"}]}],\"supported-platforms\":{\"squares\":\"shared\"}}"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\napp-icon: AppIcon\n"),
            "App/AppIcon.icon/icon.json": .text(json),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "20"])
        defer { _ = daemon.stop() }
        try daemon.sync()
        var lines = try daemon.diagnosticLines()
        #expect(lines.contains { $0.hasPrefix("iconcomposer.asset-missing App/AppIcon.icon/icon.json") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("icon.set-missing") }, "\(lines)")
        // The layer arrives (its folder too): the finding goes; a layer that is no PNG is judged.
        try FileManager.default.createDirectory(atPath: tree.path + "/App/AppIcon.icon/Assets", withIntermediateDirectories: false)
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: URL(fileURLWithPath: tree.path + "/App/AppIcon.icon/Assets/Front Layer.png"))
        try daemon.sync()
        lines = try daemon.diagnosticLines()
        #expect(!lines.contains { $0.hasPrefix("iconcomposer.asset-missing") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("image.not-png App/AppIcon.icon/Assets/Front Layer.png") }, "\(lines)")
        // The bundle goes: so does everything about it, and the icon name now names nothing.
        try FileManager.default.removeItem(atPath: tree.path + "/App/AppIcon.icon")
        try daemon.sync()
        lines = try daemon.diagnosticLines()
        #expect(!lines.contains { $0.contains("AppIcon.icon") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("icon.set-missing") }, "\(lines)")
    }
}
