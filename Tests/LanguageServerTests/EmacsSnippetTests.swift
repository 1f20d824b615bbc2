import Foundation
import TestSupport
import Testing

/// The Emacs configuration docs/editors.md gives, run as written in Debian's Emacs 28.2 with its
/// eglot 1.9 (`elpa-eglot`): with `reswatch` on PATH and no daemon running, `M-x eglot` in an
/// Info.plist starts the language server, which starts a daemon, and the file's findings appear
/// in flymake (issue 29, item 1).
@Suite(.serialized) struct EmacsSnippetTests {
    static let emacs = ["/usr/bin/emacs"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let eglotInstalled =
        FileManager.default.fileExists(atPath: "/usr/share/emacs/site-lisp/elpa-src")
        && ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/share/emacs/site-lisp/elpa-src")) ?? []).contains {
            $0.hasPrefix("eglot-")
        }

    /// The Emacs Lisp block under "run by EmacsSnippetTests as written" in docs/editors.md.
    static func documentedSnippet() throws -> String {
        let doc = try String(contentsOfFile: Repo.root + "/docs/editors.md", encoding: .utf8)
        let marker = try #require(doc.range(of: "<!-- run by EmacsSnippetTests as written -->\n```elisp\n"))
        let rest = doc[marker.upperBound...]
        let end = try #require(rest.range(of: "\n```\n"))
        return String(rest[..<end.lowerBound]) + "\n"
    }

    @Test(.enabled(if: emacs != nil && eglotInstalled, "Emacs with eglot is not installed (make test installs emacs-nox and elpa-eglot)"))
    func theDocumentedConfigurationWorksInDebiansEmacs() throws {
        let emacs = try #require(Self.emacs)
        // Not under /tmp/reswatch-…: Emacs opens any file whose path contains "/tmp/Re" in
        // text-mode (auto-mode-alist, for mail replies; the match ignores case).
        let tree = try TempTree(prefix: "eglot-test")
        let root = tree.path + "/SampleApp"
        #expect(try runCommand("/bin/cp", ["-R", Repo.root + "/Examples/SampleApp", root]).status == 0)
        #expect(try runCommand("/usr/bin/git", ["init", "-q", root]).status == 0, "a project, as project.el finds it")
        let home = tree.path + "/home"
        let run = tree.path + "/run"
        try FileManager.default.createDirectory(atPath: home + "/.emacs.d", withIntermediateDirectories: true)
        mkdir(run, 0o700)
        try Self.documentedSnippet().write(toFile: home + "/.emacs.d/init.el", atomically: true, encoding: .utf8)
        // What a person does: open the file, M-x eglot (in batch: the command's own contact
        // guess, with no prompt), then read flymake's diagnostics for the buffer.
        let probe = """
            (require 'eglot)
            (find-file (getenv "RW_OPEN"))
            (apply #'eglot (eglot--guess-contact))
            (let ((deadline (+ (float-time) 120)) (mode major-mode) diags)
              (while (and (null (setq diags (flymake-diagnostics))) (< (float-time) deadline))
                (accept-process-output nil 0.2))
              (with-temp-file (getenv "RW_OUT")
                (insert (format "mode %s\\n" mode))
                (dolist (d diags)
                  (insert (format "%s %s\\n" (flymake-diagnostic-type d) (flymake-diagnostic-text d))))))
            (kill-emacs 0)
            """
        try probe.write(toFile: tree.path + "/probe.el", atomically: true, encoding: .utf8)
        let binDir = (Repo.binary as NSString).deletingLastPathComponent
        let socket = run + "/reswatch/reswatch.sock"
        defer { _ = try? runCommand(Repo.binary, ["shutdown", "--socket", socket]) }
        let result = try runCommand(
            "/usr/bin/timeout", ["300", emacs, "--batch", "-l", home + "/.emacs.d/init.el", "-l", tree.path + "/probe.el"],
            environment: [
                "PATH": binDir + ":/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": run, "XDG_STATE_HOME": tree.path + "/state",
                "RW_OPEN": root + "/SampleApp/Info.plist", "RW_OUT": tree.path + "/out.txt",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let out = (try? String(contentsOfFile: tree.path + "/out.txt", encoding: .utf8)) ?? ""
        #expect(out.hasPrefix("mode nxml-mode\n"), "\(out)")
        #expect(out.contains("eglot-error reswatch [plist.orientations]"), "the Info.plist's error in flymake: \(out) \(result.stderr)")
        // An info finding is a flymake note (the missing capabilities at iOS 15 are info since issue 59).
        #expect(out.contains("eglot-note reswatch [plist.device-capabilities]"), "\(out)")
        let status = try runCommand(Repo.binary, ["status", "--socket", socket]).stdout
        #expect(status.contains("started on demand by reswatch lsp") && status.contains(root), "\(status)")
    }
}
