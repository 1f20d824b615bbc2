import Foundation
import TestSupport
import Testing

/// A path on the command line is bytes, as a file name is: a folder whose name is not UTF-8 is
/// checked, watched and repaired where it is (not looked for under a name with U+FFFD in it), and
/// shown with the byte escaped (`\xFF`), never raw, in what is printed and logged.
///
/// Foundation's `Process` can pass only UTF-8 arguments, so each command runs under `/bin/sh`,
/// whose `printf` makes the byte.
@Suite struct RawArgumentsTests {
    /// Runs `script` under `/bin/sh` with `$1` the binary and `$2` the tree.
    static func shell(_ script: String, _ tree: String, _ more: [String] = []) throws -> CommandResult {
        try runCommand("/bin/sh", ["-c", script, "sh", Repo.binary, tree] + more)
    }

    /// Makes `tree/a\xFFb` (by the shell) holding a copy of the bundled example.
    static func exampleUnderANameThatIsNotUTF8(_ tree: TempTree) throws {
        let made = try shell(
            #"d="$2/a$(printf '\377')b" && mkdir "$d" && cp -a "$3/." "$d""#, tree.path, [Repo.root + "/Examples/SampleApp"])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// Empties the tree by the shell (its removal by name would not find the byte).
    static func removeAll(_ tree: TempTree) { _ = try? shell(#"rm -rf "$2"/*"#, tree.path) }

    @Test func checkAndFixFindTheFolderAndShowItsByteEscaped() throws {
        let tree = try TempTree()
        defer { Self.removeAll(tree) }
        try Self.exampleUnderANameThatIsNotUTF8(tree)

        let json = try Self.shell(#"exec "$1" check --format json "$2/a$(printf '\377')b""#, tree.path)
        #expect(json.status == 1, "the example's errors are found: \(json.stderr)")
        #expect(json.stdout.contains(#""root" : "\#(tree.path)/a\\xFFb""#), "\(json.stdout.prefix(400))")
        #expect(json.stdout.contains(#""rule" : "icon.size-mismatch""#))

        let text = try Self.shell(#"exec "$1" check "$2/a$(printf '\377')b""#, tree.path)
        #expect(text.stdout.contains("\(tree.path)/a\\xFFb/SampleApp/Assets.xcassets/"), "\(text.stdout.prefix(400))")
        #expect(!text.stdout.contains("\u{FFFD}") && !text.stderr.contains("cannot check"), "\(text.stderr)")

        let plan = try Self.shell(#"exec "$1" fix "$2/a$(printf '\377')b""#, tree.path)
        #expect(plan.stdout.contains("\(tree.path)/a\\xFFb: 4 repairs (a plan"), "\(plan.stdout.prefix(400))\(plan.stderr)")
    }

    @Test func aMissingPathIsNamedEscaped() throws {
        let tree = try TempTree()
        let missing = try Self.shell(#"exec "$1" check "$2/x$(printf '\376\033')[31my""#, tree.path)
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains("reswatch: cannot check \(tree.path)/x\\xFE\\x1B[31my: No such file or directory"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("\u{1B}"))

        let daemon = try Self.shell(#"exec "$1" daemon --socket "$2/s.sock" "$2/x$(printf '\376')y""#, tree.path)
        #expect(daemon.status == 2)
        #expect(daemon.stderr.contains("reswatch: cannot watch \(tree.path)/x\\xFEy: no such directory"), "\(daemon.stderr)")
    }

    /// The daemon watches such a root given at its start and one added by `watch add`; `status`,
    /// `watch list` and its log name them escaped.
    @Test func theDaemonWatchesRootsNamedInBytes() throws {
        let tree = try TempTree()
        defer { Self.removeAll(tree) }
        try Self.exampleUnderANameThatIsNotUTF8(tree)
        #expect(mkdir(tree.path + "/other", 0o755) == 0)
        let socket = tree.path + "/s.sock"
        let log = tree.path + "/daemon.log"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/bin/sh")
        daemon.arguments = [
            "-c", #"exec "$1" daemon --socket "$2/s.sock" "$2/a$(printf '\377')b" 2>"$2/daemon.log""#, "sh", Repo.binary, tree.path,
        ]
        try daemon.run()
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        var status = try runCommand(Repo.binary, ["status", "--socket", socket])
        for _ in 0..<500 where !status.stdout.contains(": ready") {
            usleep(20_000)
            status = try runCommand(Repo.binary, ["status", "--socket", socket])
        }
        #expect(status.stdout.contains("\(tree.path)/a\\xFFb: ready,"), "\(status.stdout)\(status.stderr)")

        let add = try Self.shell(#"exec "$1" watch add --socket "$2/s.sock" "$2/other/c$(printf '\376')d""#, tree.path)
        #expect(add.status == 2 && add.stderr.contains("\(tree.path)/other/c\\xFEd is not a directory"), "\(add.stderr)")
        #expect(try Self.shell(#"mkdir "$2/other/c$(printf '\376')d""#, tree.path).status == 0)
        let added = try Self.shell(#"exec "$1" watch add --socket "$2/s.sock" "$2/other/c$(printf '\376')d""#, tree.path)
        #expect(added.status == 0, "\(added.stderr)")
        let list = try runCommand(Repo.binary, ["watch", "list", "--socket", socket])
        #expect(list.stdout == "\(tree.path)/a\\xFFb\n\(tree.path)/other/c\\xFEd\n", "\(list.stdout)")
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(logged.contains("INFO watching \(tree.path)/a\\xFFb\n"), "\(logged)")
        #expect(logged.contains("INFO watching \(tree.path)/other/c\\xFEd\n"), "\(logged)")
    }
}
