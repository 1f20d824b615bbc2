import ProjectModel
import RuleEngine
import SystemCalls

/// `--changed-since REV`: the project folders that hold a file changed since a git revision
/// (committed, staged, unstaged or untracked), among the checked paths.
package enum ChangedProjects {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func git(_ arguments: [String], in directory: String) throws(Failure) -> [String] {
        guard let git = executable("git") else { throw Failure(description: "--changed-since needs git, which is not on PATH") }
        let output: ChildOutput
        do {
            output = try ChildProcess.run(
                argv: [git, "-C", directory] + arguments, input: [], timeoutMilliseconds: 120_000, outputLimit: 256 << 20)
        } catch { throw Failure(description: "cannot run git: \(error.reason)") }
        guard output.exit == .exited(0) else {
            let why = String(decoding: output.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "git \(arguments.joined(separator: " ")) failed: \(why.isEmpty ? "\(output.exit)" : why)")
        }
        return output.stdout.split(separator: 0).map { FileName.decode(Array($0)) }
    }

    package static func executable(_ name: String) -> String? {
        let path = ProcessEnvironment.current()["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileSystem.isExecutable($0) }
    }

    /// Files whose change can change a finding: resources and what gives them their context
    /// (the same list as the pre-commit hook's). A change to source code or a README is not one.
    package static func isResource(_ path: String) -> Bool {
        let name = RelativePath.name(path)
        let ext = name.split(separator: ".").count > 1 ? String(name.split(separator: ".").last!).lowercased() : ""
        // Sources and privacy manifests count (required-reason APIs, issue 25), so do Icon
        // Composer layers (SVG) and Tuist's Project.swift.
        return [
            "png", "jpg", "jpeg", "json", "plist", "strings", "stringsdict", "storyboard", "xib", "pbxproj", "xcconfig", "xcscheme",
            "xcprivacy", "svg", "swift", "m", "mm", "c", "cc", "cpp",
        ]
        .contains(ext) || [".reswatch.yaml", "project.yml", "iTunesArtwork", "iTunesArtwork@2x"].contains(name)
            || path.contains("/.reswatch/")
    }

    /// Project folders (absolute) whose resources changed since `revision`, each inside one of `scopes`.
    package static func projects(since revision: String, repository: String, scopes: [String]) throws(Failure) -> [String] {
        // A file argument: git runs in its folder.
        let folder = (try? FileSystem.statusFollowingLinks(repository))?.kind == .directory ? repository : RelativePath.parent(repository)
        let top: String
        do {
            top = try git(["rev-parse", "--show-toplevel"], in: folder).first?.trimmingCharacters(in: .newlines) ?? ""
        } catch {
            throw Failure(description: "--changed-since needs a git repository, and \(repository) is not in one")
        }
        guard !top.isEmpty else { throw Failure(description: "--changed-since needs a git repository, and \(repository) is not in one") }
        let changed: [String]
        do {
            changed =
                try git(["diff", "--name-only", "-z", revision, "--"], in: top)
                + git(["ls-files", "--others", "--exclude-standard", "-z"], in: top)
        } catch {
            throw Failure(
                description: "--changed-since \(revision): git cannot compare the work tree with that revision (\(error.description))")
        }
        var projects: [String] = []
        for relative in changed where isResource(relative) {
            var path = top + "/" + relative
            guard scopes.contains(where: { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else { continue }
            // A deleted file: its project is that of the nearest folder still there.
            var isDirectory = false
            while true {
                if let status = try? FileSystem.statusFollowingLinks(path) {
                    isDirectory = status.kind == .directory
                    break
                }
                path = RelativePath.parent(path)
                if path.isEmpty { path = "/" }
            }
            let project = ProjectLocator.root(for: path, isDirectory: isDirectory)
            if !projects.contains(project) { projects.append(project) }
        }
        return projects.sorted()
    }
}
