import Foundation
import TestSupport
import Testing

/// The Neovim configuration docs/editors.md gives, run as written in Debian's Neovim (0.7.2):
/// with `reswatch` on PATH and no daemon running, opening a Contents.json starts the language
/// server, which starts a daemon on demand, and the file's finding appears (issue 29, item 1).
@Suite(.serialized) struct NeovimSnippetTests {
    /// The Lua block under "run by NeovimSnippetTests as written" in docs/editors.md.
    static func documentedSnippet() throws -> String {
        let doc = try String(contentsOfFile: Repo.root + "/docs/editors.md", encoding: .utf8)
        let marker = try #require(doc.range(of: "<!-- run by NeovimSnippetTests as written -->\n```lua\n"))
        let rest = doc[marker.upperBound...]
        let end = try #require(rest.range(of: "\n```\n"))
        return String(rest[..<end.lowerBound]) + "\n"
    }

    @Test(.enabled(if: NeovimTests.nvim != nil, "Neovim is not installed (make test installs Debian's neovim)"))
    func theDocumentedConfigurationWorksInDebiansNeovim() throws {
        let nvim = try #require(NeovimTests.nvim)
        let (tree, root, iconSet) = try NeovimTests.copyOfTheExample()
        #expect(try runCommand("/usr/bin/git", ["init", "-q", root]).status == 0, "a project folder, as the snippet finds it")
        let run = tree.path + "/run"
        mkdir(run, 0o700)
        try Self.documentedSnippet().write(toFile: tree.path + "/init.lua", atomically: true, encoding: .utf8)
        let probe = """
            vim.cmd("edit " .. vim.fn.fnameescape(vim.env.RW_OPEN))
            vim.wait(120000, function() return #vim.diagnostic.get(0) > 0 end, 100)
            local out = io.open(vim.env.RW_OUT, "w")
            for _, d in ipairs(vim.diagnostic.get(0)) do out:write(tostring(d.code) .. "\\n") end
            out:close()
            vim.cmd("qa!")
            """
        try probe.write(toFile: tree.path + "/probe.lua", atomically: true, encoding: .utf8)
        let binDir = (Repo.binary as NSString).deletingLastPathComponent
        let socket = run + "/reswatch/reswatch.sock"
        defer { _ = try? runCommand(Repo.binary, ["shutdown", "--socket", socket]) }
        let result = try runCommand(
            "/usr/bin/timeout",
            ["300", nvim, "--headless", "-n", "-i", "NONE", "-u", tree.path + "/init.lua", "-c", "luafile " + tree.path + "/probe.lua"],
            environment: [
                "PATH": binDir + ":/usr/bin:/bin", "HOME": tree.path, "XDG_RUNTIME_DIR": run, "XDG_STATE_HOME": tree.path + "/state",
                "XDG_CACHE_HOME": tree.path + "/cache", "RW_OPEN": iconSet + "/Contents.json", "RW_OUT": tree.path + "/out.txt",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let codes = (try? String(contentsOfFile: tree.path + "/out.txt", encoding: .utf8)) ?? ""
        #expect(codes.contains("icon.file-missing"), "the Contents.json's finding in the editor: \(codes) \(result.stderr)")
        let status = try runCommand(Repo.binary, ["status", "--socket", socket]).stdout
        #expect(status.contains("started on demand by reswatch lsp") && status.contains(root), "\(status)")
    }
}
