import Foundation
import RuleEngine
import TestSupport
import Testing

/// A real editor: headless Neovim (Debian's, installed by `make test`) with its built-in LSP
/// client runs `reswatch lsp` on the example project, receives the diagnostics of files it never
/// opened, and sees the diagnostic go when the file is fixed on disk.
@Suite(.serialized) struct NeovimTests {
    static let nvim = ["/usr/bin/nvim", "/usr/local/bin/nvim"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func neovimShowsAndClearsFindings() throws {
        let nvim = try #require(Self.nvim, "Neovim is not installed: `make test` installs Debian's neovim")
        let tree = try TempTree()
        let copy = try runCommand("/bin/cp", ["-R", Repo.root + "/Examples/SampleApp", tree.path + "/"])
        #expect(copy.status == 0)
        let root = tree.path + "/SampleApp"
        let set = root + "/SampleApp/Assets.xcassets/AppIcon.appiconset"
        let broken = set + "/Icon-iphone-60@2x.png"
        let daemon = try DaemonHarness(roots: [])
        let out = tree.path + "/nvim-out.txt"

        let process = Process()
        process.executableURL = URL(fileURLWithPath: nvim)
        let script = Repo.root + "/Tests/LanguageServerTests/Neovim/reswatch-test.lua"
        process.arguments = ["--headless", "-n", "-i", "NONE", "-u", "NONE", "-c", "luafile " + script]
        var env = ProcessInfo.processInfo.environment
        env["RW_BIN"] = Repo.binary
        env["RW_SOCKET"] = daemon.socket
        env["RW_ROOT"] = root
        env["RW_OPEN"] = root + "/SampleApp/Info.plist"
        env["RW_BROKEN"] = broken
        env["RW_OUT"] = out
        // Every finding a cold check of the same copy reports.
        let expected = try coldCheckLines(root).count
        #expect(expected >= 8)
        env["RW_EXPECTED"] = String(expected)
        env["XDG_STATE_HOME"] = tree.path + "/state"  // Neovim's LSP log stays in the temporary tree
        env["XDG_CACHE_HOME"] = tree.path + "/cache"
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

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
        try #require(wait(for: "ready", seconds: 40), "Neovim output: \(lines())")
        #expect(lines().contains("received true"), "\(lines())")
        #expect(lines().contains("diagnostic icon.size-mismatch severity=1 source=reswatch"), "\(lines())")
        let total = lines().first { $0.hasPrefix("total ") }.flatMap { Int($0.dropFirst(6)) } ?? 0
        #expect(total == expected, "every finding of the example, on files never opened: \(lines())")

        try ExampleRunner.write(["Icon-iphone-60@2x.png": .png(PNGSpec(width: 120, height: 120))], under: set)  // the fix
        #expect(wait(for: "done", seconds: 45), "\(lines())")
        #expect(lines().contains("cleared true"), "the fixed file's diagnostic disappears: \(lines())")
        #expect(lines().last { $0.hasPrefix("total ") } == "total \(total - 1)", "only that one: \(lines())")
        process.waitUntilExit()
    }
}
