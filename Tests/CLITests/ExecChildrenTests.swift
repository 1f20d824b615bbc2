import Foundation
import TestSupport
import Testing

/// An exec rule leaves nothing behind (issue 10, item 11): a program that starts a background
/// child and answers at once is judged by its own exit, and its whole process group is killed.
@Suite struct ExecChildrenTests {
    @Test func aBackgroundChildNeitherDelaysTheRuleNorOutlivesIt() throws {
        let marker = "reswatch-exec-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let rules = try TempTree([
            "bg.sh": .text(
                "#!/bin/sh\nsh -c 'exec -a \(marker) sleep 120' &\necho '{\"diagnostics\":[{\"rule\":\"t.bg\",\"message\":\"answered\"}]}'\n"
            ),
            "bg.yaml": .text(
                "rules:\n  - kind: exec\n    argv: [./bg.sh]\n    subjects: [asset-set]\n    timeout-ms: 20000\n    rules: [{id: t.bg}]\n"),
        ])
        chmod(rules.path + "/bg.sh", 0o755)
        let tree = try TempTree(["A.imageset/Contents.json": .text("{\"images\":[]}")])
        let result = try runCommand(Repo.binary, ["check", "--no-color", "--rules", rules.path, tree.path])
        #expect(result.stdout.contains("answered [t.bg]"), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("timed out"), "judged by the program's exit, not by the pipe its child holds")
        let survivors = try runCommand("/usr/bin/pgrep", ["-f", marker])
        #expect(survivors.stdout.isEmpty, "the background child was killed with its group: \(survivors.stdout)")
    }
}
