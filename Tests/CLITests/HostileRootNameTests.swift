import Foundation
import TestSupport
import Testing

/// A root's own path is text the daemon passes on as it read it: `status`, `watch list` and
/// `diagnostics` show it escaped, so a newline or an ANSI escape in it can neither forge a line nor recolour a
/// terminal (the findings were escaped already).
@Suite struct HostileRootNameTests {
    @Test func statusAndDiagnosticsEscapeARootPath() throws {
        let tree = try TempTree()
        let name = "p\nreswatch: all clear\u{1B}[31m"
        let root = tree.path + "/" + name
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: root + "/README.txt"))
        let daemon = try DaemonHarness(roots: [root])
        defer { _ = daemon.stop() }

        let status = try runCommand(Repo.binary, ["status", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("/p\\nreswatch: all clear\\x1B[31m: ready"), "\(status.stdout)")
        #expect(!status.stdout.contains("\u{1B}") && !status.stdout.contains("\nreswatch: all clear"), "\(status.stdout)")

        let list = try runCommand(Repo.binary, ["watch", "list", "--socket", daemon.socket])
        #expect(list.stdout == "\(tree.path)/p\\nreswatch: all clear\\x1B[31m\n", "one line, escaped: \(list.stdout)")

        // Nothing to check in the root: `diagnostics` says so on stderr, naming the root escaped.
        let diagnostics = try runCommand(Repo.binary, ["diagnostics", "--socket", daemon.socket])
        #expect(diagnostics.stderr.contains("reswatch: note: \(tree.path)/p\\nreswatch: all clear\\x1B[31m:"), "\(diagnostics.stderr)")
        #expect(!diagnostics.stderr.contains("\u{1B}") && !diagnostics.stderr.contains("\nreswatch: all clear"), "\(diagnostics.stderr)")

        // The daemon's own log names the root the same way: one line, no escape sequence.
        #expect(daemon.stderr.contains("INFO watching \(tree.path)/p\\nreswatch: all clear\\x1B[31m\n"), "\(daemon.stderr)")
        #expect(!daemon.stderr.contains("\u{1B}") && !daemon.stderr.contains("\nreswatch: all clear"), "\(daemon.stderr)")
    }

    /// reswatch's own error lines name paths from the command line escaped too: a path holding a
    /// newline and an escape sequence, given where reswatch cannot use it, is said on one line of
    /// stderr (a log-file path printed `cannot open the log file: open(…/p` and a forged second
    /// line; a socket path, a config and a baseline were the same).
    @Test(arguments: [
        ["daemon", "--log-file", "{}/x.log", "--socket", "{root}/s.sock", "{root}"],
        ["daemon", "--config", "{}/reswatch.yaml", "--socket", "{root}/s.sock", "{root}"],
        ["status", "--socket", "{}/s.sock"],
        ["diagnostics", "--socket", "{}/s.sock"],
        ["check", "--baseline", "{}/baseline.json", "{root}"],
    ])
    func errorLinesEscapeAPathFromTheCommandLine(_ template: [String]) throws {
        let tree = try TempTree()
        let hostile = tree.path + "/p\nreswatch: all clear\u{1B}[31m"  // never created
        let arguments = template.map {
            $0.replacingOccurrences(of: "{}", with: hostile).replacingOccurrences(of: "{root}", with: tree.path)
        }
        let r = try runCommand(Repo.binary, arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("p\\nreswatch: all clear\\x1B[31m"), "the path is named, escaped: \(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\nreswatch: all clear"), "\(r.stderr)")
    }

    /// A usage error quotes the argument it rejects: an unknown command, an option's value (given
    /// apart or after `=`) is shown escaped, while the message's own lines (the usage, the list of
    /// commands) stay lines.
    @Test(arguments: [
        ["chek{}"],
        ["check", "--format", "x{}", "."],
        ["check", "--format=x{}", "."],
    ])
    func usageErrorsEscapeTheArgumentTheyQuote(_ template: [String]) throws {
        let hostile = "\nreswatch: all clear\u{1B}[31m"
        let r = try runCommand(Repo.binary, template.map { $0.replacingOccurrences(of: "{}", with: hostile) })
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\\nreswatch: all clear\\x1B[31m"), "the argument is quoted, escaped: \(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\nreswatch: all clear"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count >= 2, "the message keeps its own lines: \(r.stderr)")
    }
}
