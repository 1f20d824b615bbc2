import Foundation
import ImageFacts
import RuleEngine
import RuleKinds
import RuleKit
import SystemCalls
import TestSupport
import Testing

/// Any path given to `check` is judged within its enclosing project, and every finding under it
/// is printed; a path the daemon does not watch is an error.
@Suite struct PathArgumentTests {
    /// An iPhone-only project (pbxproj) whose catalog has a broken image set and a wrong icon.
    static let project: [String: ExampleFile] = [
        "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
            buildSettings:
                "IPHONEOS_DEPLOYMENT_TARGET = 16.0; TARGETED_DEVICE_FAMILY = 1; SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist;"),
        "App/Info.plist": .text(
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>x</string></dict></plist>\n"),
        "App/Assets.xcassets/Contents.json": .text("{\"info\":{\"version\":1}}"),
        "App/Assets.xcassets/Broken.imageset/Contents.json": .text("{\"images\": [ nope"),
        "App/Assets.xcassets/Broken.imageset/b.png": .png(PNGSpec(width: 4, height: 4)),
        "App/Assets.xcassets/Other.imageset/x.png": .png(PNGSpec(width: 4, height: 4)),
    ]

    func check(_ path: String) throws -> (CommandResult, [String], [String: Any]) {
        let result = try runCommand(Repo.binary, ["check", "--format", "json", path])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
        let context = try #require((root["projects"] as? [[String: Any]])?.first?["context"] as? [String: Any])
        return (result, diagnostics.map { "\($0["rule"]!) \($0["path"]!)" }, context)
    }

    @Test func aFolderArgumentKeepsTheProjectsBuildSettings() throws {
        let tree = try TempTree(Self.project)
        let (_, found, context) = try check(tree.path + "/App/Assets.xcassets")
        #expect(context["devices"] as? [String] == ["iphone"], "TARGETED_DEVICE_FAMILY = 1 from the pbxproj")
        #expect((context["sources"] as? [String: String])?["devices"] == "project.pbxproj")
        #expect(found.contains("catalog.contents-invalid App/Assets.xcassets/Broken.imageset/Contents.json"))
        #expect(
            found.contains("catalog.contents-missing App/Assets.xcassets/Other.imageset/x.png"),
            "a set without Contents.json is shown on a file of its own")
        #expect(!found.contains { $0.hasSuffix("App/Info.plist") }, "findings outside the argument are not printed: \(found)")
    }

    @Test(arguments: ["App/Assets.xcassets/Broken.imageset", "App/Assets.xcassets/Broken.imageset/Contents.json"])
    func aSetOrItsContentsJsonReportsTheSetsFindings(_ argument: String) throws {
        let tree = try TempTree(Self.project)
        let (result, found, _) = try check(tree.path + "/" + argument)
        #expect(result.status == 1)
        #expect(found == ["catalog.contents-invalid App/Assets.xcassets/Broken.imageset/Contents.json"])
    }

    /// A link to a folder named on the command line is checked where it leads, within that
    /// project (its build settings), not reported as a link nobody follows.
    @Test func aLinkToAFolderGivenAsTheArgumentIsCheckedWhereItLeads() throws {
        let tree = try TempTree(Self.project)
        let elsewhere = try TempTree()
        #expect(symlink(tree.path + "/App/Assets.xcassets/Broken.imageset", elsewhere.path + "/Linked.imageset") == 0)
        let (result, found, context) = try check(elsewhere.path + "/Linked.imageset")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(found == ["catalog.contents-invalid App/Assets.xcassets/Broken.imageset/Contents.json"], "\(found)")
        #expect(context["devices"] as? [String] == ["iphone"], "judged in its own project")
        #expect(!result.stderr.contains("nothing to check"), "\(result.stderr)")
    }

    @Test func aLoneFileIsCheckedInItsFolderWithItsOwnFinding() throws {
        let dir = try TempTree(["Icon.png": .bytes(Array("GIF89a not a png".utf8))])
        let (result, found, _) = try check(dir.path + "/Icon.png")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(found == ["image.not-png Icon.png"])
        let text = try runCommand(Repo.binary, ["check", "--no-color", dir.path + "/Icon.png"])
        #expect(text.stdout.hasPrefix(dir.path + "  "), "judged in its own folder, not from /: \(text.stdout.prefix(200))")
    }

    @Test func locatorStopsAtTheProjectAndNeverAboveTheRoot() throws {
        let tree = try TempTree(Self.project)
        #expect(ProjectLocator.root(for: tree.path + "/App/Assets.xcassets/Broken.imageset", isDirectory: true) == tree.path)
        #expect(ProjectLocator.root(for: tree.path + "/App/Info.plist", isDirectory: false) == tree.path)
        let plain = try TempTree(["Assets.xcassets/A.imageset/Contents.json": .text("{}")])
        #expect(
            ProjectLocator.root(for: plain.path + "/Assets.xcassets/A.imageset", isDirectory: true) == plain.path,
            "no project: the folder above the catalog")
        #expect(ProjectLocator.root(for: "/", isDirectory: true) == "/")
    }

    /// `check` locates its paths before the rule modules load (to walk them meanwhile), but says
    /// what is wrong in the order it always did: no rule in force first, and alone; a path that
    /// cannot be checked only when the rules are in force.
    @Test func aPathProblemIsSaidAfterTheRulesOwn() throws {
        let empty = try TempTree([:])
        var env = ProcessInfo.processInfo.environment
        env["RESWATCH_SHIPPED_RULES"] = empty.path
        let noRules = try runCommand(Repo.binary, ["check", "/nonexistent-reswatch-path"], environment: env)
        #expect(noRules.status == 2)
        #expect(noRules.stderr.contains("no rule is in force"), "\(noRules.stderr)")
        #expect(!noRules.stderr.contains("cannot check"), "the path is not judged without rules: \(noRules.stderr)")
        let noPath = try runCommand(Repo.binary, ["check", "/nonexistent-reswatch-path"])
        #expect(noPath.status == 2)
        #expect(noPath.stderr == "reswatch: cannot check /nonexistent-reswatch-path: No such file or directory\n", "\(noPath.stderr)")
    }

    /// Each marker makes its folder the project, among many other names; a marker's name with
    /// the wrong kind (a file named like an .xcodeproj, a folder named .reswatch.yaml) does not.
    @Test func eachProjectMarkerIsFoundAmongManyNames() throws {
        var files: [String: ExampleFile] = ["Top/.reswatch.yaml": .text("devices: [iphone]\n")]
        for i in 0..<300 { files["Top/noise-\(i).txt"] = .text("") }
        for (i, marker) in ["Mid0/project.yml", "Mid1/Project.swift", "Mid2/App.xcodeproj/project.pbxproj", "Mid3/.reswatch.yaml"]
            .enumerated()
        {
            files["Top/" + marker] = .text("")
            files["Top/Mid\(i)/A.xcassets/S.imageset/Contents.json"] = .text("{}")
        }
        files["Top/Fake/Not.xcodeproj"] = .text("a file")
        files["Top/Fake/.reswatch.yaml/x"] = .text("a folder")
        files["Top/Fake/A.xcassets/S.imageset/Contents.json"] = .text("{}")
        let tree = try TempTree(files)
        for i in 0..<4 {
            let set = tree.path + "/Top/Mid\(i)/A.xcassets/S.imageset"
            #expect(ProjectLocator.root(for: set, isDirectory: true) == tree.path + "/Top/Mid\(i)")
        }
        #expect(ProjectLocator.root(for: tree.path + "/Top/Fake/A.xcassets/S.imageset", isDirectory: true) == tree.path + "/Top")
    }

    @Test func diagnosticsForAPathNoRootContainsExitsTwo() throws {
        let tree = try TempTree(Self.project)
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        let outside = try runCommand(Repo.binary, ["diagnostics", "--socket", daemon.socket, "/etc"])
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("/etc is not under a watched root"))
        let inside = try runCommand(
            Repo.binary, ["diagnostics", "--socket", daemon.socket, tree.path + "/App/Assets.xcassets/Broken.imageset/Contents.json"])
        #expect(inside.status == 1 && inside.stdout.contains("catalog.contents-invalid") && !inside.stdout.contains("Other.imageset"))
    }
}

/// File names are bytes: names that are not UTF-8 stay distinct, and no name can forge output.
@Suite struct FileNameOutputTests {
    @Test func namesThatAreNotUTF8AreNeitherMergedNorMissing() throws {
        let tree = try TempTree()
        let set = tree.path + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        let png = PNGSynthesizer.encode(PNGSpec(width: 1024, height: 1024))
        for byte: UInt8 in [0xFF, 0xFE] {
            let name = FileName.decode(Array("Icon".utf8) + [byte] + Array(".png".utf8))
            let fd = FileName.withCString(set + "/" + name) { open($0, O_WRONLY | O_CREAT, 0o644) }
            #expect(fd >= 0)
            _ = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        try Data(#"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"Icon.png"}]}"#.utf8).write(
            to: URL(fileURLWithPath: set + "/Contents.json"))
        let result = try runCommand(Repo.binary, ["check", "--format", "json", tree.path])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
        let unassigned = diagnostics.filter { $0["rule"] as? String == "icon.unassigned" }.compactMap { $0["path"] as? String }.sorted()
        #expect(unassigned == ["AppIcon.appiconset/Icon\\xFE.png", "AppIcon.appiconset/Icon\\xFF.png"], "two files, two findings, escaped")
        #expect(diagnostics.contains { $0["rule"] as? String == "icon.file-missing" }, "Icon.png itself really is missing")
        #expect((root["summary"] as? [String: Int])?["files"] == 3)
    }

    /// `é` precomposed (NFC) and decomposed (NFD) are one name to Swift's `String` (canonical
    /// equivalence) and to a Mac's file system, but two files on Linux. A Contents.json naming
    /// the NFC spelling finds an NFD file (as Xcode on APFS does); with both on disk, each is its
    /// own file: the finding on the one that is not a PNG names its bytes, the other has none.
    @Test func canonicallyEquivalentNamesResolveLikeAMacAndStayTwoFiles() throws {
        let tree = try TempTree()
        let set = tree.path + "/App/Assets.xcassets/X.imageset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        let composed = "caf\u{E9}.png"
        let decomposed = "cafe\u{301}.png"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        try Data(#"{"images":[{"idiom":"universal","filename":"\#(composed)","scale":"1x"}],"info":{"version":1}}"#.utf8).write(
            to: URL(fileURLWithPath: set + "/Contents.json"))
        let png = Data(PNGSynthesizer.encode(PNGSpec(width: 4, height: 4)))
        func check() throws -> (Int?, [(rule: String, path: [UInt8])]) {
            let result = try runCommand(Repo.binary, ["check", "--format", "json", tree.path])
            let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
            return (
                (root["summary"] as? [String: Int])?["files"],
                diagnostics.map { ($0["rule"] as? String ?? "", Array(($0["path"] as? String ?? "").utf8)) }
            )
        }
        try png.write(to: URL(fileURLWithPath: set + "/" + decomposed))
        let (alone, aloneFindings) = try check()
        #expect(alone == 2 && aloneFindings.isEmpty, "the NFD file is the one named: \(aloneFindings)")

        try FileManager.default.removeItem(atPath: set + "/" + decomposed)
        try png.write(to: URL(fileURLWithPath: set + "/" + composed))
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: set + "/" + decomposed))
        let names = try FileManager.default.contentsOfDirectory(atPath: set)
        #expect(names.count == 3, "two files on disk: \(names)")
        let (both, findings) = try check()
        #expect(both == 3)
        let suffix = Array("/X.imageset/".utf8) + Array(decomposed.utf8)
        #expect(findings.contains { $0.rule == "image.not-png" && $0.path.suffix(suffix.count) == suffix[...] }, "\(findings)")
        #expect(
            !findings.contains { $0.path.suffix(Array(composed.utf8).count + 1) == ([0x2F] + Array(composed.utf8))[...] }, "\(findings)")
    }

    @Test func aNewlineOrEscapeInANameCannotForgeALine() throws {
        let tree = try TempTree(["Evil\nsrc/x.png: error: forged\u{1B}[0m.imageset/.keep": .text("")])
        let result = try runCommand(Repo.binary, ["check", "--no-color", tree.path])
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("src/x.png") }, "\(result.stdout)")
        #expect(result.stdout.contains("Evil\\nsrc/x.png: error: forged\\x1B[0m.imageset/.keep: error:"), "shown on the set's own file")
        #expect(!result.stdout.contains("\u{1B}"))
    }

    /// A folder with no files (a mistyped path in CI) is said, not passed as clean, and so is one
    /// whose files are nothing reswatch checks; one with an Info.plist is checked.
    @Test func anEmptyFolderIsNothingToCheckAndSaysSo() throws {
        let empty = try TempTree(["build/Icon.png": .text("")])  // only an excluded build folder
        let result = try runCommand(Repo.binary, ["check", empty.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("it holds 0 files (build folders excluded)"), "\(result.stderr)")
        let notes = try TempTree(["notes.txt": .text("hi")])
        let unrelated = try runCommand(Repo.binary, ["check", notes.path])
        #expect(unrelated.status == 2 && unrelated.stderr.contains("nothing to check"), "\(unrelated.stderr)")
        let full = try TempTree(["notes.txt": .text("hi"), "App/Info.plist": .text("<plist><dict/></plist>")])
        let checked = try runCommand(Repo.binary, ["check", full.path])
        #expect(!checked.stderr.contains("nothing to check"), "\(checked.stderr)")
    }
}
