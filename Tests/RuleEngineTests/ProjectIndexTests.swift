import RuleKinds
import RuleKit
import SystemCalls
import TestSupport
import Testing

@testable import RuleEngine

/// Which folders are projects: one holding `.reswatch.yaml`, an `*.xcodeproj` folder,
/// project.yml or Project.swift; failing those, one holding an Info.plist (not in a bundle).
@Suite struct ProjectIndexTests {
    /// The markers are read on the names' bytes, as the tree holds them: the same verdicts as
    /// comparing the names as Strings, in folders and files, near misses and names beyond ASCII
    /// (and bytes that are not UTF-8, held as U+10FFxx) included.
    @Test func markersOnBytesAreTheStringVerdicts() {
        let names = [
            ".reswatch.yaml", ".reswatch.yml", "reswatch.yaml", "App.xcodeproj", "App.XCODEPROJ", ".xcodeproj", "xcodeproj",
            "project.yml", "Project.yml", "Project.swift", "project.swift", "Info.plist", "App-Info.plist", "Info.plist.bak",
            "info.plist", "-Info.plist", "\u{1F600}.xcodeproj", "Caf\u{E9}-Info.plist", "x\u{10FF80}.xcodeproj", "Info.plist\u{301}", "",
        ]
        for name in names {
            for isDirectory in [false, true] {
                let expected: ProjectIndex.Marker? =
                    (name == ".reswatch.yaml" && !isDirectory) || (isDirectory && name.hasSuffix(".xcodeproj"))
                        || ((name == "project.yml" || name == "Project.swift") && !isDirectory)
                    ? .strong : (!isDirectory && SubjectClassifier.isInfoPlist(name) ? .weak : nil)
                #expect(RelativePath.withBytes(of: name) { ProjectIndex.marker($0, isDirectory: isDirectory) } == expected, "\(name)")
                // The locator of `check` takes the strong markers; a path added or removed is a
                // marker as a folder or as a file. All three read the one list.
                #expect(ProjectLocator.isMarker(DirectoryEntry(name: name, isDirectory: isDirectory)) == (expected == .strong), "\(name)")
            }
            let asPath = "A/b/" + name
            let either = [true, false].contains { d in RelativePath.withBytes(of: name) { ProjectIndex.marker($0, isDirectory: d) } != nil }
            #expect(ProjectIndex.isMarker(asPath) == either, "\(asPath)")
        }
        #expect(ProjectIndex.isMarker("App.xcodeproj") && ProjectIndex.isMarker("x/Info.plist") && !ProjectIndex.isMarker("x/a.png"))
    }

    /// A tree's projects: strong markers, an Info.plist folder without one, and an Info.plist in a
    /// bundle (not a project).
    @Test func aTreesProjectsAreItsMarkedFolders() throws {
        let tree = try TempTree([
            "A/.reswatch.yaml": .text("devices: [iphone]\n"),
            "B/B.xcodeproj/project.pbxproj": .text("// !$*UTF8*$!\n{}\n"),
            "C/Sub/Info.plist": .text(""),
            "D/Settings.bundle/Info.plist": .text(""),
            "E/project.yml": .text("name: E\n"),
            "F/a.png": .text(""),
        ])
        let engine = Engine(root: tree.path, rules: Repo.shippedRuleSet(), registry: BuiltinKinds.registry)
        engine.fullScan()
        let index = ProjectIndex(tree: engine.tree)
        #expect(index.directories == ["A", "B", "C/Sub", "E"])
        #expect(index.project(containing: "F/a.png") == "" && index.project(containing: "B/B.xcodeproj") == "B")
    }
}
