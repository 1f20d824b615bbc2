import Foundation
import RuleEngine
import RuleKinds
import TestSupport
import Testing

/// Every finding has a place a person can go to (issue 26): a finding on a text file (Contents.json,
/// Info.plist, project.pbxproj, a storyboard, a YAML file) carries the line and column of what it is
/// about, and a finding on an image in an asset set names, as a related location, the Contents.json
/// line of the entry that uses it. Checked on the real binary's JSON output for the example, every
/// rule kind's generated example trees, and the real apps of the corpus.
@Suite struct FindingPlacesTests {
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "pdf", "heic", "webp", "svg"]

    /// What a person cannot act on, one sentence per finding (empty when every place is given),
    /// and how many findings were judged.
    static func misplaced(_ root: String) throws -> (problems: [String], judged: Int) {
        let (result, diagnostics) = checkDiagnostics([root]) { $0.minSeverity = .info }
        #expect(result.status == 0 || result.status == 1, "\(root): exit \(result.status) \(result.stderr)")
        var problems: [String] = []
        var judged = 0
        for d in diagnostics {
            let rel = d["path"] as? String ?? ""
            let file = (d["root"] as? String ?? "") + (rel.isEmpty ? "" : "/" + rel)
            let name = (rel as NSString).lastPathComponent
            let ext = (name as NSString).pathExtension.lowercased()
            let what = "\(d["rule"] ?? "") on \(rel)"
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
                let bytes = FileManager.default.contents(atPath: file)
            else { continue }
            let isText =
                !ext.isEmpty && !imageExtensions.contains(ext) && !bytes.starts(with: Array("bplist".utf8))
                && !bytes.prefix(8192).contains(0)
            if isText {
                judged += 1
                if !(d["line"] is Int) || !(d["column"] is Int) { problems.append("\(what): no line and column (\(d["message"] ?? ""))") }
            }
            let folder = (rel as NSString).deletingLastPathComponent
            let setFolder = ["appiconset", "imageset", "launchimage"].contains((folder as NSString).pathExtension.lowercased())
            let contents = (d["root"] as? String ?? "") + "/" + folder + "/Contents.json"
            if imageExtensions.contains(ext), setFolder, FileManager.default.fileExists(atPath: contents) {
                judged += 1
                let places = d["relatedLocations"] as? [[String: Any]] ?? []
                let entry = places.first { ($0["path"] as? String)?.hasSuffix("/Contents.json") == true && $0["line"] is Int }
                if entry == nil { problems.append("\(what): no related Contents.json line") }
            }
        }
        return (problems, judged)
    }

    @Test func theExampleShowsEveryFindingsPlace() throws {
        let (problems, judged) = try Self.misplaced(Repo.root + "/Examples/SampleApp")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(judged >= 7, "the example's findings on text files and set images")
    }

    /// The generated projects: each rule kind's own example trees (what every rule reports).
    @Test func everyKindsExampleTreesShowEveryFindingsPlace() throws {
        var judged = 0
        var problems: [String] = []
        for kind in BuiltinKinds.all {
            for example in kind.examples where example.module == nil && example.isTriggering {
                let tree = try TempTree(example.files)
                let outcome = try Self.misplaced(tree.path)
                judged += outcome.judged
                problems += outcome.problems.map { "\(kind.name) / \(example.name): \($0)" }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(judged >= 100, "findings judged over the examples: \(judged)")
    }

    @Test(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"))
    func theRealAppsShowEveryFindingsPlace() throws {
        let apps = try FileManager.default.contentsOfDirectory(atPath: Repo.corpus).filter { !$0.hasSuffix(".md") }.sorted()
        var judged = 0
        for app in apps {
            let outcome = try Self.misplaced(Repo.corpus + "/" + app)
            judged += outcome.judged
            #expect(outcome.problems.isEmpty, "\(app):\n\(outcome.problems.joined(separator: "\n"))")
        }
        #expect(judged >= 100)
    }

    /// The place is the key's own: a missing key points at the dictionary it goes in, and says so.
    @Test func aMissingKeyPointsAtTheDictionaryAndSaysWhereToAddIt() throws {
        let (_, diagnostics) = checkDiagnostics([Repo.root + "/Examples/SampleApp"])
        let capabilities = try #require(diagnostics.first { $0["rule"] as? String == "plist.device-capabilities" })
        #expect(capabilities["line"] as? Int == 4 && capabilities["column"] as? Int == 1)
        #expect(
            (capabilities["message"] as? String)?.hasSuffix("add <key>UIRequiredDeviceCapabilities</key> to the top-level <dict> at line 4")
                == true)
        let orientations = try #require(diagnostics.first { $0["rule"] as? String == "plist.orientations" })
        let plist = try String(contentsOfFile: Repo.root + "/Examples/SampleApp/SampleApp/Info.plist", encoding: .utf8)
        let keyLine = try #require(
            plist.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.contains("<key>UISupportedInterfaceOrientations</key>")
            })
        #expect(orientations["line"] as? Int == keyLine + 1, "the orientations finding is on its key")
        let size = try #require(diagnostics.first { $0["rule"] as? String == "icon.size-mismatch" })
        let entry = try #require((size["relatedLocations"] as? [[String: Any]])?.first)
        let contents = try String(
            contentsOfFile: Repo.root + "/Examples/SampleApp/SampleApp/Assets.xcassets/AppIcon.appiconset/Contents.json", encoding: .utf8)
        let lines = contents.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(entry["line"] as? Int)
        #expect(lines[line - 1].contains("\"Icon-iphone-60@2x.png\""), "the entry's filename line")
    }
}
