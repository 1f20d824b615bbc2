import Findings
import Foundation
import ProjectModel
import RuleEngine
import RuleKit
import SystemCalls

/// The result of `reswatch check`, in the JSON shape of the issue:
/// `{"version": 1, "projects": [{"path", "context"}], "diagnostics": [...], "summary": {...}}`.
public struct CheckReport: Sendable, Encodable {
    public struct Project: Sendable, Encodable {
        public let root: String
        public let path: String
        public let context: ContextJSON
        /// What reswatch judges in the project (0: nothing was checked there, never "no problems").
        public let judged: Int
    }

    public struct ContextJSON: Sendable, Encodable {
        public let devices: [String]
        public let deploymentTarget: String
        public let distribution: String
        public let appIcon: String?
        public let launchImage: String?
        public let infoPlist: String?
        public let infoPlistReason: String?
        public let sources: [String: String]
        /// Where each value came from, precisely ("App.xcconfig:3", "Xcode default", "… unknown (not read: …)").
        public let origins: [String: String]
        public let target: String?
        public let configuration: String?
        public let configurationReason: String?
        public let notes: [String]
        /// Why nothing of the project is judged as an app's (it builds no iOS app), or nil.
        public let noApp: String?

        enum CodingKeys: String, CodingKey {
            case devices, distribution, sources
            case deploymentTarget = "deployment_target"
            case appIcon = "app_icon"
            case launchImage = "launch_image"
            case infoPlist = "info_plist"
            case infoPlistReason = "info_plist_reason"
            case origins, target, configuration, notes
            case configurationReason = "configuration_reason"
            case noApp = "no_app"
        }

        public init(_ c: ProjectContext) {
            devices = Device.allCases.filter { c.devices.contains($0) }.map(\.rawValue)
            deploymentTarget = c.deploymentTarget.description
            distribution = c.distribution.rawValue
            appIcon = c.appIconName
            launchImage = c.launchImageName
            infoPlist = c.infoPlist
            infoPlistReason = c.infoPlistReason
            origins = c.origins
            target = c.targetName
            configuration = c.configuration
            configurationReason = c.configurationReason
            notes = c.notes
            noApp = c.noAppReason
            sources = c.sources.dictionary.mapValues(\.rawValue)
        }

        public func encode(to encoder: any Encoder) throws {
            var k = encoder.container(keyedBy: CodingKeys.self)
            try k.encode(devices, forKey: .devices)
            try k.encode(deploymentTarget, forKey: .deploymentTarget)
            try k.encode(distribution, forKey: .distribution)
            try k.encode(appIcon, forKey: .appIcon)
            try k.encode(launchImage, forKey: .launchImage)
            try k.encode(infoPlist, forKey: .infoPlist)
            try k.encode(infoPlistReason, forKey: .infoPlistReason)
            try k.encode(origins, forKey: .origins)
            try k.encode(target, forKey: .target)
            try k.encode(configuration, forKey: .configuration)
            try k.encode(configurationReason, forKey: .configurationReason)
            try k.encode(notes, forKey: .notes)
            try k.encode(noApp, forKey: .noApp)
            try k.encode(sources, forKey: .sources)
        }
    }

    public struct Summary: Sendable, Encodable {
        public let errors: Int
        public let warnings: Int
        public let infos: Int
        public let files: Int
        /// Findings left out because a baseline lists them.
        public var suppressed = 0

        init(counting diagnostics: [Diagnostic], files: Int) {
            errors = diagnostics.count { $0.severity == .error }
            warnings = diagnostics.count { $0.severity == .warning }
            infos = diagnostics.count { $0.severity == .info }
            self.files = files
        }
    }

    public let version = 1
    public let projects: [Project]
    public private(set) var diagnostics: [Diagnostic]
    public private(set) var summary: Summary
    public let ruleErrors: [ModuleError]
    /// Errors in projects' own configuration (config.invalid): `check` exits 2 when there are any,
    /// whatever the severity filter shows.
    public let unappliedConfigurations: Int

    enum CodingKeys: String, CodingKey {
        case version, projects, diagnostics, summary
        case ruleErrors = "rule_errors"
    }

    /// `scopes`: per root, the parts the command asked about (none: the whole root). Findings
    /// outside them are left out; so are projects that neither contain nor lie in one of them.
    public init(engines: [Engine], minimumSeverity: Severity, scopes: [String: [DiagnosticScope]] = [:]) {
        var projects: [Project] = []
        var diagnostics: [Diagnostic] = []
        var errors: [ModuleError] = []
        var files = 0
        var unapplied = 0
        for engine in engines {
            let parts = scopes[engine.root] ?? []
            let wanted = { (path: String) in parts.isEmpty || parts.contains { $0.contains(path: path) } }
            for context in engine.projectContexts
            where parts.isEmpty
                || parts.contains(where: { RelativePath.isWithin($0.path, context.directory) || $0.contains(path: context.directory) })
            {
                projects.append(
                    Project(
                        root: engine.root, path: context.directory, context: ContextJSON(context),
                        judged: engine.coverage(ofProject: context.directory).judgedCount))
            }
            // A project's configuration problems concern everything in it: shown for any scope inside.
            let inScope = engine.diagnostics.filter { d in
                wanted(d.path)
                    || (EngineRules.projectRuleIDs.contains(d.rule) && parts.contains { RelativePath.isWithin($0.path, d.project) })
            }
            unapplied += inScope.count { $0.rule == EngineRules.configInvalid.id && $0.severity == .error }
            diagnostics += inScope.filter { $0.severity >= minimumSeverity }
            // Counted on the tree's nodes for one scope (the usual `check PATH`); paths are built
            // only for several.
            files +=
                parts.isEmpty
                ? engine.fileCount
                : parts.count == 1 ? engine.tree.fileCount(under: parts[0].path) : engine.tree.filePaths.count(where: wanted)
            for e in engine.ruleErrors where !errors.contains(e) { errors.append(e) }
        }
        diagnostics = Self.foldingLFSPointers(diagnostics)
        diagnostics.sort(by: Diagnostic.stableOrder)
        self.projects = projects
        self.diagnostics = diagnostics
        self.ruleErrors = errors
        self.unappliedConfigurations = unapplied
        summary = Summary(counting: diagnostics, files: files)
    }

    /// A project's Git LFS pointers said once: more than three `project.left-out` findings about
    /// pointers become one at the first, naming a few and counting the rest (a clone without
    /// git-lfs has thousands; the daemon keeps one a file, for editors).
    static func foldingLFSPointers(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        let isPointer = { (d: Diagnostic) in d.rule == EngineRules.leftOut.id && d.message.hasSuffix(EngineRules.lfsPointerSuffix) }
        var groups: [String: [Diagnostic]] = [:]
        for d in diagnostics where isPointer(d) { groups["\(d.root)\u{0}\(d.project)", default: []].append(d) }
        guard groups.values.contains(where: { $0.count > 3 }) else { return diagnostics }
        var kept = diagnostics.filter { d in !isPointer(d) || groups["\(d.root)\u{0}\(d.project)"]!.count <= 3 }
        for (_, group) in groups where group.count > 3 {
            let sorted = group.sorted(by: Diagnostic.stableOrder)
            let names = sorted.prefix(3).map { FileName.display($0.path) }.joined(separator: ", ")
            let first = sorted[0]
            kept.append(
                Diagnostic(
                    rule: first.rule, severity: first.severity, root: first.root, project: first.project, path: first.path,
                    message:
                        "\(group.count) files are Git LFS pointers, not the images (the clone has no LFS content): \(names) and \(group.count - 3) more; not judged: run `git lfs pull` and check again",
                    fix: first.fix))
        }
        return kept
    }

    /// The report with only the findings whose flag is true (the summary counts them again).
    public func keeping(_ keep: [Bool]) -> CheckReport {
        var copy = self
        copy.diagnostics = zip(diagnostics, keep).filter(\.1).map(\.0)
        copy.summary = Summary(counting: copy.diagnostics, files: summary.files)
        return copy
    }

    public func json(suppressed: Int = 0) -> String {
        var copy = self
        copy.summary.suppressed = suppressed
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(copy)) ?? Data(), as: UTF8.self)
    }
}
