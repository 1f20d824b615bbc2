import Findings
import Foundation
import SystemCalls

/// Resolves a project's context from `.reswatch.yaml`, then `project.pbxproj`, then Info.plist, then defaults.
public enum ContextResolver {
    /// `infoPlistCandidates`: every Info.plist / *-Info.plist of the project (root-relative), for
    /// finding the app's own when no setting names it.
    /// One context per iOS app of the project (the primary app first; a project without an Xcode
    /// project or with one app has one). Each app is judged with its own settings, on the paths
    /// its target owns (`ownedPaths`).
    /// `overlay`: settings laid over the project's own `.reswatch.yaml` (`check --config`, `--ignore`).
    public static func resolveAll(
        projectDirectory dir: String, files: some ProjectFileAccess, infoPlistCandidates: [String] = [], overlay: ProjectConfig? = nil
    ) -> [ProjectContext] {
        // Each app's context reads the same Xcode projects: parsed, and their targets resolved, once.
        let memo = XcodeProjectMemo()
        let primary = resolve(
            projectDirectory: dir, files: files, infoPlistCandidates: infoPlistCandidates, app: nil, overlay: overlay, memo: memo)
        var contexts = [primary]
        for app in primary.appTargets.dropFirst() + primary.appClips {
            contexts.append(
                resolve(
                    projectDirectory: dir, files: files, infoPlistCandidates: infoPlistCandidates, app: app, overlay: overlay, memo: memo))
        }
        // A secondary app's own problems name it (the project's are reported once, by the primary).
        for i in contexts.indices.dropFirst() {
            let name = contexts[i].targetName ?? "?"
            contexts[i].problems = contexts[i].problems.filter { !primary.problems.contains($0) }.map {
                ContextProblem($0.kind, path: $0.path, line: $0.line, message: "target \(name): \($0.message)")
            }
            // The rules that judge an app's Info.plist judge one Xcode generates whole on the
            // project's subject, in the primary app's context only: a second such app is said.
            if contexts[i].infoPlist == nil, contexts[i].infoPlistGenerated, contexts[i].noAppReason == nil {
                contexts[i].problems.append(
                    ContextProblem(
                        .notChecked, path: dir, line: nil,
                        message:
                            "target \(name): its Info.plist is generated whole by Xcode (GENERATE_INFOPLIST_FILE, no INFOPLIST_FILE), and only the primary app's (\(primary.targetName ?? "?")) generated Info.plist is judged: its keys were not checked"
                    ))
            }
        }
        return contexts
    }

    public static func resolve(
        projectDirectory dir: String, files: some ProjectFileAccess, infoPlistCandidates: [String] = [], app: String? = nil,
        overlay: ProjectConfig? = nil
    ) -> ProjectContext {
        resolve(projectDirectory: dir, files: files, infoPlistCandidates: infoPlistCandidates, app: app, overlay: overlay, memo: nil)
    }

    static func resolve(
        projectDirectory dir: String, files: some ProjectFileAccess, infoPlistCandidates: [String], app: String?,
        overlay: ProjectConfig?, memo: XcodeProjectMemo?
    ) -> ProjectContext {
        var context = ProjectContext(directory: dir)
        // 1. .reswatch.yaml, and what the command line lays over it
        var config = readConfig(dir, files: files, into: &context)
        if let overlay { config.config = config.config.overlaid(by: overlay) }
        // 2. The Xcode project (or the XcodeGen / Tuist description): the iOS app target's
        // settings in the configuration that ships.
        let project = readProject(dir, files: files, app: app, into: &context, memo: memo)
        let pbx = project.settings
        context.adopt(pbx, projectDirectory: dir, files: files)
        // A project that builds no iOS app has no app Info.plist to find by convention (a Mac
        // app's beside its .xcodeproj is not one), unless .reswatch.yaml names one.
        if project.found, pbx.targetName == nil, config.config.infoPlist == nil, let why = noApp(pbx.targets, project: project.name) {
            context.noAppReason = why
            // Said once for the project, naming every target (not once more for each).
            context.problems.removeAll { $0.kind == .notChecked }
            context.problems.append(
                ContextProblem(.notChecked, path: dir, line: nil, message: "\(why): nothing in it is judged as an app's"))
        }
        // A project inside a Swift package's folder (below the checked root) is the package's
        // example, demo or inspector app, not a product of the repository: said, not judged,
        // unless its own .reswatch.yaml asks for it.
        if project.found, !config.found, context.noAppReason == nil, let package = enclosingPackage(of: dir, files: files) {
            context.noAppReason =
                "\(project.name ?? "the project") lies inside the Swift package \(package) (Package.swift): the package's example or demo app"
            context.problems.removeAll { $0.kind == .notChecked }
            context.problems.append(
                ContextProblem(
                    .notChecked, path: dir, line: nil,
                    message: "\(context.noAppReason!): not judged as an app the repository ships; a .reswatch.yaml in \(dir) judges it"))
        }
        context.isMarked = config.found || project.found
        // The app's resources as the Xcode project lists them: an asset catalog no target
        // bundles ships in no product (`unbundledCatalog`).
        context.resourcesKnown = project.fromXcodeProjects && pbx.targetName != nil && !pbx.resources.isEmpty
        // 3. Info.plist
        let located =
            context.noAppReason != nil
            ? LocatedInfoPlist(path: nil, reason: "none: the project is not judged as an app (project.not-checked says why)")
            : locateInfoPlist(
                dir: dir, pbx: pbx, config: config.config, xcodeprojName: project.name, candidates: infoPlistCandidates,
                marked: config.found || project.found, files: files)
        context.infoPlist = located.path
        context.infoPlistReason = located.reason
        if let problem = located.problem { context.problems.append(problem) }
        noteExtensions(
            among: infoPlistCandidates, targets: project.found && !pbx.mayUseXcconfig ? pbx.targets : [], files: files, into: &context)
        var plist: PlistValue?
        if let path = context.infoPlist, case .success(let bytes) = files.read(path),
            case .success(let (value, _)) = PropertyListReader.parse(bytes)
        {
            plist = value
        }
        // 4. Each setting from the first source that has it.
        context.choose(config.config, pbx, plist)
        if let overlay { context.credit(overlay) }
        context.adopt(config.config, pbx)
        return context
    }

    /// `.reswatch.yaml` of the project directory, if any; its problems go into the context.
    static func readConfig(_ dir: String, files: some ProjectFileAccess, into context: inout ProjectContext) -> (
        config: ProjectConfig, found: Bool
    ) {
        let configPath = RelativePath.join(dir, ".reswatch.yaml")
        switch files.read(configPath) {
        case .success(let bytes):
            let (parsed, problems) = ProjectConfigReader.parse(String(decoding: bytes, as: UTF8.self))
            context.problems += problems.map { ContextProblem(.configInvalid, path: configPath, line: $0.line, message: $0.message) }
            return (parsed, true)
        case .failure(let error) where !error.isNotFound:
            context.problems.append(
                ContextProblem(.configInvalid, path: configPath, line: nil, message: "cannot be read: \(error.reason); it is not applied"))
            return (ProjectConfig(), false)
        case .failure: return (ProjectConfig(), false)
        }
    }

    /// The build settings a project description gives, its name, and whether there is one.
    struct ProjectSettings {
        var settings = PBXBuildSettings()
        var name: String?
        var found = false
        /// Read from checked-in `.xcodeproj`s that all parsed, or from an XcodeGen description with
        /// no `include:`: their targets' resources are what Xcode bundles (a Tuist manifest is
        /// read in part).
        var fromXcodeProjects = false
    }

    /// The checked-in `.xcodeproj`s; without one an XcodeGen description, or the literal
    /// arguments of a Tuist manifest (Swift code reswatch never runs).
    static func readProject(
        _ dir: String, files: some ProjectFileAccess, app: String?, into context: inout ProjectContext, memo: XcodeProjectMemo? = nil
    ) -> ProjectSettings {
        let listing = (try? files.list(dir).get()) ?? []
        let projects = listing.filter { $0.isDirectory && $0.name.hasSuffix(".xcodeproj") }.map(\.name).sorted()
        if !projects.isEmpty { return readXcodeprojs(projects, in: dir, files: files, app: app, into: &context, memo: memo) }
        var result = ProjectSettings()
        if let spec = XcodeGenReader.fileNames.first(where: { n in listing.contains { $0.name == n && !$0.isDirectory } }) {
            result = readXcodeGen(RelativePath.join(dir, spec), files: files, into: &context)
        }
        if result.name == nil, listing.contains(where: { $0.name == TuistReader.fileName && !$0.isDirectory }) {
            result = readTuist(RelativePath.join(dir, TuistReader.fileName), files: files, app: app, into: &context)
        } else if result.name == nil, listing.contains(where: { $0.name == "Tuist" || $0.name == "Workspace.swift" }) {
            context.notes.append(
                "a Tuist workspace without Project.swift here: its projects were not read; generate the .xcodeproj, or set the context in .reswatch.yaml"
            )
        }
        return result
    }

    static func readXcodeprojs(
        _ projects: [String], in dir: String, files: some ProjectFileAccess, app: String?, into context: inout ProjectContext,
        memo: XcodeProjectMemo? = nil
    ) -> ProjectSettings {
        var result = ProjectSettings(found: true, fromXcodeProjects: true)
        for name in projects {
            let path = RelativePath.join(dir, name)
            let read = memo?.projects[path] ?? XcodeProjectReader.read(path, files: files)
            memo?.projects[path] = read
            switch read {
            case .success(let project):
                let targets = memo?.targets[path] ?? TargetResolver.resolve(project, files: files)
                memo?.targets[path] = targets
                let settings = PBXProjectReader.settings(project, targets: targets, app: app)
                // The first project with an iOS app is the app's; the others' targets are noted.
                if result.settings.targetName == nil, settings.targetName != nil || result.name == nil {
                    let others = result.settings.targets
                    result.settings = settings
                    result.settings.targets += others
                    result.name = project.name
                } else {
                    result.settings.targets += settings.targets
                }
            case .failure(let e):
                result.fromXcodeProjects = false
                let file = RelativePath.join(path, "project.pbxproj")
                let what = if case .unreadable(let io) = e { "cannot be read (\(io.reason))" } else { "cannot be parsed (\(e))" }
                context.problems.append(
                    ContextProblem(
                        .pbxprojInvalid, path: file, line: e.line,
                        message:
                            "project.pbxproj \(what); its build settings are not used: the context comes from .reswatch.yaml, Info.plist and defaults instead"
                    ))
            }
        }
        return result
    }

    static func readXcodeGen(_ path: String, files: some ProjectFileAccess, into context: inout ProjectContext) -> ProjectSettings {
        let spec = RelativePath.name(path)
        switch XcodeGenReader.read(path, files: files) {
        case .success(let (project, problems)):
            var settings = PBXProjectReader.settings(project, files: files)
            settings.problems += problems
            context.notes.append("project from the XcodeGen description \(spec)")
            // Its targets' sources are what XcodeGen bundles, unless an include: adds more.
            return ProjectSettings(settings: settings, name: project.name, found: true, fromXcodeProjects: problems.isEmpty)
        case .failure(let problem):
            context.problems.append(
                ContextProblem(
                    .pbxprojInvalid, path: path, line: problem.line,
                    message: "\(spec) (XcodeGen) cannot be read: \(problem.message); its build settings are not used"))
            return ProjectSettings(found: true)
        }
    }

    static func readTuist(_ path: String, files: some ProjectFileAccess, app: String?, into context: inout ProjectContext)
        -> ProjectSettings
    {
        switch TuistReader.read(path, files: files) {
        case .success(let (project, notes)):
            context.notes.append("project from the Tuist manifest \(TuistReader.fileName) (its literal arguments)")
            context.notes += notes
            return ProjectSettings(settings: PBXProjectReader.settings(project, files: files, app: app), name: project.name, found: true)
        case .failure(let failure):
            context.problems.append(
                ContextProblem(
                    .pbxprojInvalid, path: path, line: failure.line,
                    message: "\(TuistReader.fileName) (Tuist) \(failure.message); its settings are not used"))
            return ProjectSettings(found: true)
        }
    }

    /// The nearest folder above `dir` (not the checked root itself) that holds a Package.swift.
    static func enclosingPackage(of dir: String, files: some ProjectFileAccess) -> String? {
        var folder = RelativePath.parent(dir)
        while !folder.isEmpty {
            if case .success(let entries) = files.list(folder), entries.contains(where: { !$0.isDirectory && $0.name == "Package.swift" }) {
                return folder
            }
            folder = RelativePath.parent(folder)
        }
        return nil
    }

    /// "Runner builds no iOS app (its targets: Runner (macOS application), RunnerTests
    /// (unit-test bundle))" when every target's product type is known and none is an iOS app; nil
    /// when there are none or one is of a type reswatch cannot tell (then nothing is concluded).
    static func noApp(_ targets: [ResolvedTarget], project: String?) -> String? {
        guard !targets.isEmpty, targets.allSatisfy({ $0.isAggregate || $0.productType.hasPrefix("com.apple.product-type.") })
        else { return nil }
        guard !targets.contains(where: \.isIOSApplication) else { return nil }
        let shown = targets.prefix(6).map { "\($0.name) (\($0.kindDescription))" }
        let more = targets.count > 6 ? " and \(targets.count - 6) more" : ""
        return "\(project ?? "the project") builds no iOS app (its targets: \(shown.joined(separator: ", "))\(more))"
    }

    /// An Info.plist with NSExtension is an extension's, whether or not its target could be read:
    /// its folder holds the extension's resources, not the app's.
    /// When the project's targets were read and each names its Info.plist, an extension's
    /// Info.plist that none of them names is left over (its target was removed from project.yml):
    /// no product ships it, and that is said once (`orphanInfoPlists`, project.left-out).
    static func noteExtensions(
        among candidates: [String], targets: [ResolvedTarget], files: some ProjectFileAccess, into context: inout ProjectContext
    ) {
        let named = Set(
            targets.compactMap { t in
                t.settings.string("INFOPLIST_FILE").flatMap {
                    $0.isEmpty || $0.hasPrefix("/") ? nil : RelativePath.normalize(RelativePath.join(context.directory, $0))
                }
            })
        // Every target that bundles code names its Info.plist, or generates one: then the list is whole.
        let whole =
            !targets.isEmpty && noApp(targets, project: nil) == nil
            && targets.allSatisfy { $0.isAggregate || $0.productType.hasPrefix("com.apple.product-type.") }
            && targets.allSatisfy { t in
                t.isAggregate || t.productType.contains("library") || t.settings.string("INFOPLIST_FILE").map { !$0.isEmpty } == true
                    || PBXProjectReader.isYes(t.settings.string("GENERATE_INFOPLIST_FILE") ?? "")
            }
        for candidate in candidates where candidate != context.infoPlist {
            let folder = RelativePath.parent(candidate)
            // With the whole list of targets, an extension plist none names is no product's,
            // even in the folder of a target that generates its own (Tuist .extendingDefault).
            let owned = folder == context.directory || context.otherTargets.contains(where: { $0.directory == folder })
            if owned, !whole || named.contains(candidate) { continue }
            guard case .success(let bytes) = files.read(candidate), case .success(let (plist, _)) = PropertyListReader.parse(bytes),
                plist["NSExtension"] != nil || plist["EXAppExtensionAttributes"] != nil
            else { continue }
            if whole, !named.contains(candidate) {
                context.orphanInfoPlists.append(candidate)
                context.problems.append(
                    ContextProblem(
                        .leftOut, path: candidate, line: nil,
                        message:
                            "\(candidate) is an extension's Info.plist that no target of the project names (INFOPLIST_FILE): no product ships it, so it is not judged"
                    ))
                continue
            }
            if owned { continue }
            context.otherTargets.append(
                OtherTarget(
                    name: RelativePath.name(folder), kind: "app extension (NSExtension in its Info.plist)", platform: .iOS,
                    productType: "com.apple.product-type.app-extension", directory: folder, notChecked: false))
        }
    }
}

/// The Xcode projects one `resolveAll` has read (by `.xcodeproj` path): each app target's context
/// reads the same ones, and parsing a large pbxproj through Foundation and resolving every target's
/// settings was most of the check of a project with four apps (TrainLCD, issue 63).
final class XcodeProjectMemo {
    var projects: [String: Result<XcodeProject, PlistError>] = [:]
    var targets: [String: [ResolvedTarget]] = [:]
}
