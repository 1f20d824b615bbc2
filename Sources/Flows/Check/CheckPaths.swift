import RuleEngine
import SystemCalls

/// Where a check goes: its roots, the scopes asked about in each, and each path as given.
package struct CheckPaths: Sendable {
    package var roots: [String] = []
    package var scopes: [String: [DiagnosticScope]] = [:]
    package var shown: [(root: String, scope: String, shown: String)] = []

    /// Each argument is judged within its enclosing project; arguments of one project share it.
    /// `given` are the paths as the person wrote them (to name them in a message).
    package static func locate(_ arguments: [String], given: [String]) throws(FlowFailure) -> CheckPaths {
        var located = CheckPaths()
        for argument in arguments {
            let shown = given.first { FileSystem.absolutePath($0) == argument } ?? argument
            let status: FileStatus
            do { status = try FileSystem.statusFollowingLinks(argument) } catch {
                throw FlowFailure("cannot check \(FileName.display(shown)): \(error.reason)")
            }
            let isDirectory = status.kind == .directory
            // A link to a folder, named on the command line, is checked where it leads: the walk
            // does not follow folder links, so judged from its parent it would be only a link.
            var absolute = argument
            if isDirectory, (try? FileSystem.status(argument))?.kind == .symlink, let real = FileSystem.realPath(argument) {
                absolute = real
            }
            if isDirectory && !FileSystem.isReadable(absolute) {
                throw FlowFailure("cannot check \(FileName.display(shown)): Permission denied")
            }
            let root = ProjectLocator.root(for: absolute, isDirectory: isDirectory)
            if located.scopes[root] == nil { located.roots.append(root) }
            let relative = absolute == root ? "" : String(absolute.dropFirst(root == "/" ? 1 : root.count + 1))
            located.scopes[root, default: []].append(DiagnosticScope(relativePath: relative))
            located.shown.append((root, DiagnosticScope(relativePath: relative).path, shown))
        }
        return located
    }

    /// The paths to check: the arguments, or with `changedSince` the projects under them that
    /// changed since the revision (none: said).
    package static func changed(_ options: CheckOptions, output: FlowOutput) throws(FlowFailure) -> [String] {
        let arguments = options.paths.map(FileSystem.absolutePath)
        guard let revision = options.changedSince else { return arguments }
        let changed: [String]
        do { changed = try ChangedProjects.projects(since: revision, repository: arguments[0], scopes: arguments) } catch {
            throw FlowFailure(error.description)
        }
        if changed.isEmpty {
            output.say(
                "reswatch: no project under \(options.paths.joined(separator: ", ")) changed since \(revision): nothing to check")
        }
        return changed
    }
}
