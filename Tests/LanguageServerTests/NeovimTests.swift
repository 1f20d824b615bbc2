import Foundation
import ImageFacts
import RuleEngine
import TestSupport
import Testing

/// A real editor: headless Neovim (Debian's, installed by `make test`) with its built-in LSP
/// client runs `reswatch lsp` on the example project, receives the diagnostics of files it never
/// opened, and sees the diagnostic go when the file is fixed on disk.
@Suite(.serialized) struct NeovimTests {
    static let nvim = ["/usr/bin/nvim", "/usr/local/bin/nvim"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Headless Neovim running one of the scripts in Neovim/, with `reswatch lsp` on `root`
    /// against the daemon at `socket`; what the script logs is read back line by line.
    final class Run {
        let process = Process()
        let out: String

        init(nvim: String, script: String, tree: TempTree, root: String, socket: String, extra: [String: String]) throws {
            out = tree.path + "/nvim-out.txt"
            process.executableURL = URL(fileURLWithPath: nvim)
            let folder = Repo.root + "/Tests/LanguageServerTests/Neovim/"
            process.arguments = ["--headless", "-n", "-i", "NONE", "-u", "NONE", "-c", "luafile " + folder + script]
            var env = ProcessInfo.processInfo.environment
            env["RW_COMMON"] = folder + "reswatch-common.lua"
            env["RW_BIN"] = Repo.binary
            env["RW_SOCKET"] = socket
            env["RW_ROOT"] = root
            env["RW_OUT"] = out
            env["XDG_STATE_HOME"] = tree.path + "/state"  // Neovim's LSP log stays in the temporary tree
            env["XDG_CACHE_HOME"] = tree.path + "/cache"
            process.environment = env.merging(extra) { _, b in b }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        func lines() -> [String] {
            ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        func wait(for line: String, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if lines().contains(line) { return true }
                if !process.isRunning { return lines().contains(line) }
                usleep(50_000)
            }
            return false
        }
    }

    /// A copy of the example in a temporary tree: (tree, project root, its app icon set).
    static func copyOfTheExample() throws -> (TempTree, String, String) {
        let tree = try TempTree()
        #expect(try runCommand("/bin/cp", ["-R", Repo.root + "/Examples/SampleApp", tree.path + "/"]).status == 0)
        let root = tree.path + "/SampleApp"
        return (tree, root, root + "/SampleApp/Assets.xcassets/AppIcon.appiconset")
    }

    @Test func neovimShowsAndClearsFindings() throws {
        let nvim = try #require(Self.nvim, "Neovim is not installed: `make test` installs Debian's neovim")
        let (tree, root, set) = try Self.copyOfTheExample()
        let broken = set + "/Icon-iphone-60@2x.png"
        let daemon = try DaemonHarness(roots: [])
        // Every finding a cold check of the same copy reports.
        let expected = try coldCheckLines(root).count
        #expect(expected >= 8)
        let run = try Run(
            nvim: nvim, script: "reswatch-test.lua", tree: tree, root: root, socket: daemon.socket,
            extra: ["RW_OPEN": root + "/SampleApp/Info.plist", "RW_BROKEN": broken, "RW_EXPECTED": String(expected)])
        try #require(run.wait(for: "ready", seconds: 40), "Neovim output: \(run.lines())")
        #expect(run.lines().contains("received true"), "\(run.lines())")
        #expect(run.lines().contains("diagnostic icon.size-mismatch severity=1 source=reswatch"), "\(run.lines())")
        let total = run.lines().first { $0.hasPrefix("total ") }.flatMap { Int($0.dropFirst(6)) } ?? 0
        #expect(total == expected, "every finding of the example, on files never opened: \(run.lines())")

        try ExampleRunner.write(["Icon-iphone-60@2x.png": .png(PNGSpec(width: 120, height: 120))], under: set)  // the fix
        #expect(run.wait(for: "done", seconds: 45), "\(run.lines())")
        #expect(run.lines().contains("cleared true"), "the fixed file's diagnostic disappears: \(run.lines())")
        #expect(run.lines().last { $0.hasPrefix("total ") } == "total \(total - 1)", "only that one: \(run.lines())")
        run.process.waitUntilExit()
    }

    /// A repair that is no text edit, through Neovim's own code-action path: asked for on the
    /// icon's Contents.json entry, picked, run as `workspace/executeCommand`; the daemon makes the
    /// icon again, the editor is told how to undo it, and the finding goes.
    @Test func neovimRunsAnImageRepairFromTheContentsEntry() throws {
        let nvim = try #require(Self.nvim, "Neovim is not installed: `make test` installs Debian's neovim")
        let (tree, root, set) = try Self.copyOfTheExample()
        let broken = set + "/Icon-iphone-60@2x.png"
        let contents = try String(contentsOfFile: set + "/Contents.json", encoding: .utf8)
        let line = try #require(
            contents.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("Icon-iphone-60@2x.png") })
        let daemon = try DaemonHarness(roots: [])
        let run = try Run(
            nvim: nvim, script: "reswatch-fix.lua", tree: tree, root: root, socket: daemon.socket,
            extra: ["RW_OPEN": set + "/Contents.json", "RW_LINE": String(line + 1), "RW_BROKEN": broken])
        _ = run.wait(for: "done", seconds: 90)
        let seen = run.lines()
        #expect(seen.contains("received true"), "\(seen)")
        #expect(
            seen.contains {
                $0.hasPrefix("offered Make SampleApp/Assets.xcassets/AppIcon.appiconset/Icon-iphone-60@2x.png again at 120x120")
            }, "\(seen)")
        #expect(seen.contains("cleared true"), "the daemon made the icon and the finding went: \(seen)")
        #expect(seen.contains { $0.hasPrefix("message 3 reswatch: Make") && $0.contains("reswatch fix --undo") }, "\(seen)")
        let png = try Data(contentsOf: URL(fileURLWithPath: broken))
        #expect(png[16..<24].elementsEqual([0, 0, 0, 120, 0, 0, 0, 120]), "Icon-iphone-60@2x.png is 120x120 now")
    }
}
