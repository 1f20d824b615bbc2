import ArgumentParser
import Foundation
import Reporting
import RuleEngine
import SystemCalls

/// `--format F [--output FILE]`, repeatable: each `--output` writes the nearest `--format` before
/// it; a format without one goes to standard output (at most one may).
struct OutputPlan: Equatable {
    struct Output: Equatable {
        let format: String
        let file: String?
    }

    let outputs: [Output]

    /// Pairs formats and files in the order they were given (`arguments` is the command line after
    /// the subcommand name; ArgumentParser keeps each option's values but not their order).
    static func pair(arguments: [String], formats: [String], files: [String]) throws(ValidationError) -> OutputPlan {
        var outputs: [(format: String, file: String?)] = []
        var orderedFormats: [String] = []
        var orderedFiles: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { break }
            func value(_ option: String) -> String? {
                if a == option, i + 1 < arguments.count {
                    i += 1
                    return arguments[i]
                }
                return a.hasPrefix(option + "=") ? String(a.dropFirst(option.count + 1)) : nil
            }
            if let f = value("--format") {
                outputs.append((f, nil))
                orderedFormats.append(f)
            } else if let file = value("--output") {
                orderedFiles.append(file)
                guard let last = outputs.indices.last else {
                    throw ValidationError("--output \(file) must follow the --format it writes (e.g. --format sarif --output \(file))")
                }
                guard outputs[last].file == nil else {
                    throw ValidationError("--output \(file): --format \(outputs[last].format) already writes to \(outputs[last].file!)")
                }
                outputs[last].file = file
            }
            i += 1
        }
        // Parsed in-process (not from this command line): formats and files in the order parsed.
        if orderedFormats != formats || orderedFiles != files {
            guard files.count <= formats.count else { throw ValidationError("each --output needs its own --format before it") }
            outputs = formats.enumerated().map { ($1, $0 < files.count ? files[$0] : nil) }
        }
        if outputs.isEmpty { outputs = [("text", nil)] }
        let toStdout = outputs.filter { $0.file == nil }.map(\.format)
        guard toStdout.count <= 1 else {
            throw ValidationError(
                "formats \(toStdout.joined(separator: " and ")) would both go to standard output: give all but one an --output FILE")
        }
        for o in outputs where Reporters.named(o.format) == nil {
            throw ValidationError("--format \(o.format): unknown format; one of \(Reporters.names.joined(separator: ", "))")
        }
        let files = outputs.compactMap(\.file)
        if let twice = files.first(where: { f in files.count { $0 == f } > 1 }) {
            throw ValidationError("--output \(twice) is given twice")
        }
        return OutputPlan(outputs: outputs.map { Output(format: $0.format, file: $0.file) })
    }
}

/// Which findings fail the run (exit 1).
enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case error, warning, info, never

    func fails(_ summary: CheckReport.Summary) -> Bool {
        switch self {
        case .error: summary.errors > 0
        case .warning: summary.errors + summary.warnings > 0
        case .info: summary.errors + summary.warnings + summary.infos > 0
        case .never: false
        }
    }
}

/// `--changed-since REV`: the project folders that hold a file changed since a git revision
/// (committed, staged, unstaged or untracked), among the checked paths.
enum ChangedProjects {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func git(_ arguments: [String], in directory: String) throws(Failure) -> [String] {
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

    static func executable(_ name: String) -> String? {
        let path = ProcessEnvironment.current()["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileSystem.isExecutable($0) }
    }

    /// Files whose change can change a finding: resources and what gives them their context
    /// (the same list as the pre-commit hook's). A change to source code or a README is not one.
    static func isResource(_ path: String) -> Bool {
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
    static func projects(since revision: String, repository: String, scopes: [String]) throws(Failure) -> [String] {
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
