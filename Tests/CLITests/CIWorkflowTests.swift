import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// Adopting reswatch in CI: a baseline, the exit policy, several reports in one run, checking only
/// the projects a change touched.
@Suite struct CIWorkflowTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset/"

    /// An iPhone app whose icon set has one wrong size and one missing file.
    static func project() -> [String: ExampleFile] {
        [
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            set + "Contents.json": .text(
                """
                {
                  "images" : [
                    { "idiom" : "iphone", "size" : "60x60", "scale" : "2x", "filename" : "a.png" },
                    { "idiom" : "iphone", "size" : "60x60", "scale" : "3x", "filename" : "gone.png" },
                    { "idiom" : "ios-marketing", "size" : "1024x1024", "scale" : "1x", "filename" : "m.png" }
                  ]
                }
                """),
            set + "a.png": .png(PNGSpec(width: 121, height: 120)),
            set + "m.png": .png(PNGSpec(width: 1024, height: 1024)),
        ]
    }

    func check(_ tree: TempTree, _ arguments: [String]) throws -> CommandResult {
        try runCommand(Repo.binary, ["check", "--no-color", "--base-path", tree.path] + arguments + [tree.path + "/App"])
    }

    func rules(_ result: CommandResult) -> [String] {
        result.stdout.split(separator: "\n").compactMap { line in
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }.sorted()
    }

    @Test func aBaselineSurvivesLineShiftsReportsOnlyNewFindingsAndForgetsFixedOnes() throws {
        let tree = try TempTree(Self.project())
        let baseline = tree.path + "/reswatch-baseline.json"
        let first = try check(tree, ["--write-baseline", baseline])
        let all = rules(first)
        // The findings are shown, recorded as accepted, and the run that records them passes.
        #expect(first.status == 0 && all.contains("icon.file-missing") && all.contains("icon.size-mismatch"), "\(first.stdout)")
        #expect(first.stderr.contains("wrote \(all.count) finding(s) to the baseline") && first.stderr.contains("this run exits 0"))

        // Lines shift above the missing file's entry: still the same finding, still suppressed.
        let contents = try String(contentsOfFile: tree.path + "/" + Self.set + "Contents.json", encoding: .utf8)
        try tree.write([
            Self.set + "Contents.json": .text("\n\n\n" + contents.replacingOccurrences(of: "\"images\" : [", with: "\"images\" : [\n\n"))
        ])
        let shifted = try check(tree, ["--baseline", baseline])
        #expect(shifted.status == 0, "everything is in the baseline: \(shifted.stdout)")
        #expect(
            rules(shifted).isEmpty && shifted.stdout.contains("\(all.count) findings left out: listed in the baseline"), "\(shifted.stdout)"
        )

        // A new defect: only it is reported, and it fails the run.
        try tree.write([Self.set + "m.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba))])
        let added = try check(tree, ["--baseline", baseline])
        #expect(added.status == 1 && rules(added) == ["icon.marketing-alpha"], "\(added.stdout)")

        // A baselined defect fixed: the count of suppressed findings drops.
        try tree.write([Self.set + "a.png": .png(PNGSpec(width: 120, height: 120))])
        let fixed = try check(tree, ["--baseline", baseline])
        #expect(fixed.stdout.contains("\(all.count - 1) findings left out: listed in the baseline"), "\(fixed.stdout)")
    }

    @Test func anUnreadableOrForeignBaselineIsAnError() throws {
        let tree = try TempTree(Self.project().merging(["other.json": .text("{\"foo\": 1}")]) { a, _ in a })
        let missing = try check(tree, ["--baseline", tree.path + "/nope.json"])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the baseline"))
        let foreign = try check(tree, ["--baseline", tree.path + "/other.json"])
        #expect(foreign.status == 2 && foreign.stderr.contains("is not a reswatch baseline"))
        #expect(mkfifo(tree.path + "/fifo", 0o600) == 0)
        let fifo = try check(tree, ["--baseline", tree.path + "/fifo"])
        #expect(fifo.status == 2 && fifo.stderr.contains("a FIFO (named pipe), not a regular file"), "never blocks on a FIFO")
    }

    @Test func theExitPolicyIsWhatTheOptionsSay() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            Self.set + "Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"i.png\"}]}"),
            Self.set + "i.png": .png(PNGSpec(width: 1024, height: 1024)),
            Self.set + "stray.png": .png(PNGSpec(width: 8, height: 8)),
        ])
        #expect(try check(tree, []).status == 0, "a warning alone does not fail by default")
        #expect(try check(tree, ["--strict"]).status == 1)
        #expect(try check(tree, ["--fail-on", "warning"]).status == 1)
        #expect(try check(tree, ["--fail-on", "info"]).status == 1)
        let bad = try TempTree(Self.project())
        #expect(try check(bad, ["--fail-on", "never"]).status == 0)
        let both = try check(tree, ["--strict", "--fail-on", "error"])
        #expect(both.status == 2 && both.stderr.contains("--strict means --fail-on warning"))
    }

    @Test func severalReportsInOneRunAndClearErrorsForAmbiguousOnes() throws {
        let tree = try TempTree(Self.project())
        let sarif = tree.path + "/out/r.sarif"
        try FileManager.default.createDirectory(atPath: tree.path + "/out", withIntermediateDirectories: true)
        let run = try check(
            tree, ["--format", "text", "--format", "sarif", "--output", sarif, "--format", "github", "--output", tree.path + "/out/gh.txt"])
        #expect(run.status == 1 && rules(run).contains("icon.size-mismatch"), "text on standard output")
        #expect(try String(contentsOfFile: sarif, encoding: .utf8).contains("\"version\" : \"2.1.0\""))
        #expect(try String(contentsOfFile: tree.path + "/out/gh.txt", encoding: .utf8).contains("::error file=App/Assets.xcassets/"))

        let twoOnStdout = try check(tree, ["--format", "text", "--format", "json"])
        #expect(twoOnStdout.status == 2 && twoOnStdout.stderr.contains("would both go to standard output"))
        let orphan = try check(tree, ["--output", "x.sarif", "--format", "sarif"])
        #expect(orphan.status == 2 && orphan.stderr.contains("must follow the --format it writes"))
        let unknown = try check(tree, ["--format", "xml"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown format"))
        // A report path that is a link: the link is replaced, what it points at is never written.
        let victim = tree.path + "/victim.txt"
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/out/link.sarif", withDestinationPath: victim)
        _ = try check(tree, ["--format", "sarif", "--output", tree.path + "/out/link.sarif"])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep\n")
        #expect(try String(contentsOfFile: tree.path + "/out/link.sarif", encoding: .utf8).contains("\"2.1.0\""))
        let unwritable = try check(tree, ["--format", "sarif", "--output", tree.path + "/no/such/dir/r.sarif"])
        #expect(unwritable.status == 2 && unwritable.stderr.contains("cannot write the sarif report"))
    }

    @Test func pathsAreRelativeToTheRepositoryNotToTheArgument() throws {
        let tree = try TempTree(Self.project().merging(["repo-marker": .text("")]) { a, _ in a })
        #expect(try runCommand("/usr/bin/git", ["-C", tree.path, "init", "-q"]).status == 0)
        let result = try runCommand(Repo.binary, ["check", "--format", "github", tree.path + "/App/Assets.xcassets"])
        #expect(result.stdout.contains("file=App/Assets.xcassets/AppIcon.appiconset/Contents.json,line=4,"), "\(result.stdout)")
        // Outside a repository: relative to the current directory.
        let plain = try TempTree(Self.project())
        let here = try runCommand("/usr/bin/env", ["--chdir=\(plain.path)/App", Repo.binary, "check", "--format", "github", "."])
        #expect(here.stdout.contains("file=Assets.xcassets/AppIcon.appiconset/Contents.json,line=4,"), "\(here.stdout)")
    }

    @Test func changedSinceChecksOnlyTheProjectsAChangeTouched() throws {
        var files: [String: ExampleFile] = [:]
        for (path, file) in Self.project() {
            files["apps/one/" + path] = file
            files["apps/two/" + path] = file
        }
        let tree = try TempTree(files)
        let git = { (args: [String]) throws -> CommandResult in
            try runCommand("/usr/bin/git", ["-C", tree.path, "-c", "user.name=t", "-c", "user.email=t@t"] + args)
        }
        #expect(try git(["init", "-q"]).status == 0)
        #expect(try git(["add", "-A"]).status == 0)
        #expect(try git(["commit", "-qm", "start"]).status == 0)
        let none = try runCommand(Repo.binary, ["check", "--changed-since", "HEAD", tree.path])
        #expect(none.status == 0 && none.stderr.contains("nothing to check"), "\(none.stdout)\(none.stderr)")
        // A change that is not a resource (a README at the top) checks nothing, not the whole tree.
        try tree.write(["README.md": .text("notes\n")])
        let readme = try runCommand(Repo.binary, ["check", "--changed-since", "HEAD", tree.path])
        #expect(readme.status == 0 && readme.stderr.contains("nothing to check"), "\(readme.stdout)\(readme.stderr)")
        // A source file is read (required-reason APIs): its project is checked, the other not.
        try tree.write(["apps/one/App/Sources/main.swift": .text("print(1)\n")])
        let source = try runCommand(Repo.binary, ["check", "--format", "json", "--changed-since", "HEAD", tree.path])
        let projects = (try JSONSerialization.jsonObject(with: Data(source.stdout.utf8)) as? [String: Any])?["projects"] as? [[String: Any]]
        let checked = (projects ?? []).compactMap { $0["root"] as? String }
        #expect(!checked.isEmpty && checked.allSatisfy { $0.hasSuffix("/apps/one/App") }, "\(checked) \(source.stderr)")
        try FileManager.default.removeItem(atPath: tree.path + "/apps/one/App/Sources/main.swift")
        try tree.write(["apps/two/App/" + Self.set + "m.png": .png(PNGSpec(width: 1024, height: 1024, color: .rgba))])
        let two = try runCommand(Repo.binary, ["check", "--format", "github", "--changed-since", "HEAD", tree.path])
        let paths = two.stdout.split(separator: "\n").map { String($0.split(separator: ",")[0]) }
        #expect(two.status == 1 && !paths.isEmpty && paths.allSatisfy { $0.contains("file=apps/two/") }, "\(two.stdout)")
        let bad = try runCommand(Repo.binary, ["check", "--changed-since", "no-such-rev", tree.path])
        #expect(bad.status == 2 && bad.stderr.contains("--changed-since no-such-rev: git cannot compare the work tree with that revision"))
        // A file as the argument: git runs in its folder, and its project is checked.
        try tree.write(["apps/two/App/" + Self.set + "a.png": .png(PNGSpec(width: 100, height: 100))])
        let file = try runCommand(Repo.binary, ["check", "--changed-since", "HEAD", tree.path + "/apps/two/App/" + Self.set + "a.png"])
        #expect(file.status == 1 && !file.stderr.contains("fatal"), "\(file.stdout)\(file.stderr)")
        let outside = try runCommand(Repo.binary, ["check", "--changed-since", "HEAD", "/etc/hostname"])
        #expect(
            outside.status == 2 && outside.stderr.contains("needs a git repository, and /etc/hostname is not in one"), "\(outside.stderr)")
    }
}
