import Foundation
import TestSupport
import Testing

/// The shipped `.pre-commit-hooks.yaml`, run by the real pre-commit framework (`try-repo`).
@Suite(.enabled(if: Repo.pythonAvailable, "needs the test virtual environment (make test creates .build/test-venv)"))
struct PreCommitHookTests {
    func preCommit(_ repo: TempTree, _ arguments: [String]) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        let binDir = (Repo.binary as NSString).deletingLastPathComponent
        environment["PATH"] = binDir + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["PRE_COMMIT_HOME"] = repo.path + "/.cache-pre-commit"
        for key in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { environment[key] = "test" }
        for key in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { environment[key] = "test@example.com" }
        let tool = (Repo.python as NSString).deletingLastPathComponent + "/pre-commit"
        return try runCommand(
            "/usr/bin/env", ["--chdir=\(repo.path)", tool, "try-repo", Repo.root, "reswatch"] + arguments, environment: environment)
    }

    func repository() throws -> TempTree {
        let repo = try TempTree(["notes.txt": .text("hello\n")])
        #expect(try runCommand("/bin/cp", ["-r", Repo.root + "/Examples/SampleApp", repo.path + "/ios"]).status == 0)
        #expect(try runCommand("/usr/bin/git", ["-C", repo.path, "init", "-q"]).status == 0)
        #expect(try runCommand("/usr/bin/git", ["-C", repo.path, "add", "-A"]).status == 0)
        return repo
    }

    @Test func aResourceChangeChecksTheWholeProject() throws {
        let repo = try repository()
        // Only the Info.plist changed, but the icon set's findings are reported too.
        let run = try preCommit(repo, ["--files", "ios/SampleApp/Info.plist"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("reswatch (iOS resources)") && run.stdout.contains("Failed"))
        #expect(run.stdout.contains("[icon.size-mismatch]") && run.stdout.contains("[plist.orientations]"), "\(run.stdout)")
    }

    @Test func aCommitWithoutResourcesSkipsTheHook() throws {
        let repo = try repository()
        let run = try preCommit(repo, ["--files", "notes.txt"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("(no files to check)Skipped"), "\(run.stdout)")
    }
}

/// docs/ci.md's GitHub Actions workflow and GitLab job are valid for their CI systems (the
/// schemas check-jsonschema ships for them), and the hook manifest is valid for pre-commit.
@Suite(.enabled(if: Repo.pythonAvailable, "needs the test virtual environment (make test creates .build/test-venv)"))
struct CIDocumentationTests {
    static func yamlBlocks() throws -> [String] {
        let text = try String(contentsOfFile: Repo.root + "/docs/ci.md", encoding: .utf8)
        return text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    func validate(_ yaml: String, schema: String) throws -> CommandResult {
        let tree = try TempTree(["snippet.yml": .text(yaml)])
        let tool = (Repo.python as NSString).deletingLastPathComponent + "/check-jsonschema"
        return try runCommand(tool, ["--builtin-schema", schema, tree.path + "/snippet.yml"])
    }

    @Test func theWorkflowAndTheJobAreValid() throws {
        let blocks = try Self.yamlBlocks()
        let workflow = try #require(blocks.first { $0.contains("upload-sarif") })
        let job = try #require(blocks.first { $0.contains("codequality:") })
        let github = try validate(workflow, schema: "vendor.github-workflows")
        #expect(github.status == 0, "\(github.stdout)\(github.stderr)")
        let gitlab = try validate(job, schema: "vendor.gitlab-ci")
        #expect(gitlab.status == 0, "\(gitlab.stdout)\(gitlab.stderr)")
        #expect(
            workflow.contains("--format sarif --output reswatch.sarif") && job.contains("--format gitlab --output gl-code-quality.json"))
    }

    @Test func theHookManifestIsValid() throws {
        let tool = (Repo.python as NSString).deletingLastPathComponent + "/pre-commit"
        let result = try runCommand(tool, ["validate-manifest", Repo.root + "/.pre-commit-hooks.yaml"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
