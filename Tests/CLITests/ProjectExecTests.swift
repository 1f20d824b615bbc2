import Foundation
import TestSupport
import Testing

/// A checked tree cannot make reswatch run its code (issue 10, item 3): an exec rule in a project's
/// .reswatch/rules runs only with --allow-project-exec; without it the module and the flag are named.
@Suite struct ProjectExecTests {
    func tree(marker: String) throws -> TempTree {
        let script = "#!/bin/sh\ntouch '\(marker)'\necho '{\"diagnostics\":[]}'\n"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/.reswatch/rules/evil.yaml": .text(
                "rules:\n  - kind: exec\n    argv: [./evil.sh]\n    subjects: [project]\n    rules: [{id: team.evil}]\n"),
            "App/.reswatch/rules/evil.sh": .text(script),
        ])
        chmod(tree.path + "/App/.reswatch/rules/evil.sh", 0o755)
        return tree
    }

    @Test func aProjectsExecRuleDoesNotRunByDefault() throws {
        let markers = try TempTree()
        let marker = markers.path + "/ran"
        let tree = try tree(marker: marker)
        let result = try runCommand(Repo.binary, ["check", "--no-color", tree.path])
        #expect(!FileManager.default.fileExists(atPath: marker), "the project's program ran")
        #expect(result.status == 2, "a rule that was not run is said, and the check is incomplete")
        #expect(result.stdout.contains("evil.yaml:2"), "\(result.stdout)")
        #expect(result.stdout.contains("exec rule not run") && result.stdout.contains("--allow-project-exec"))
    }

    @Test func itRunsWhenAllowed() throws {
        let markers = try TempTree()
        let marker = markers.path + "/ran"
        let tree = try tree(marker: marker)
        let result = try runCommand(Repo.binary, ["check", "--no-color", "--allow-project-exec", tree.path])
        #expect(FileManager.default.fileExists(atPath: marker), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("exec rule not run"))
    }
}
