import Foundation
import RuleEngine

/// The result of `reswatch check`, in the JSON shape of the issue:
/// `{"version": 1, "projects": [{"path", "context"}], "diagnostics": [...], "summary": {...}}`.
public struct CheckReport: Sendable, Encodable {
    public struct Project: Sendable, Encodable {
        public let root: String
        public let path: String
        public let context: ContextJSON
    }

    public struct ContextJSON: Sendable, Encodable {
        public let devices: [String]
        public let deploymentTarget: String
        public let distribution: String
        public let appIcon: String?
        public let launchImage: String?
        public let infoPlist: String?
        public let sources: [String: String]

        enum CodingKeys: String, CodingKey {
            case devices, distribution, sources
            case deploymentTarget = "deployment_target"
            case appIcon = "app_icon"
            case launchImage = "launch_image"
            case infoPlist = "info_plist"
        }

        public init(_ c: ProjectContext) {
            devices = Device.allCases.filter { c.devices.contains($0) }.map(\.rawValue)
            deploymentTarget = c.deploymentTarget.description
            distribution = c.distribution.rawValue
            appIcon = c.appIconName
            launchImage = c.launchImageName
            infoPlist = c.infoPlist
            sources = c.sources.mapValues(\.rawValue)
        }

        public func encode(to encoder: any Encoder) throws {
            var k = encoder.container(keyedBy: CodingKeys.self)
            try k.encode(devices, forKey: .devices)
            try k.encode(deploymentTarget, forKey: .deploymentTarget)
            try k.encode(distribution, forKey: .distribution)
            try k.encode(appIcon, forKey: .appIcon)
            try k.encode(launchImage, forKey: .launchImage)
            try k.encode(infoPlist, forKey: .infoPlist)
            try k.encode(sources, forKey: .sources)
        }
    }

    public struct Summary: Sendable, Encodable {
        public let errors: Int
        public let warnings: Int
        public let infos: Int
        public let files: Int
    }

    public let version = 1
    public let projects: [Project]
    public let diagnostics: [Diagnostic]
    public let summary: Summary
    public let ruleErrors: [ModuleError]

    enum CodingKeys: String, CodingKey {
        case version, projects, diagnostics, summary
        case ruleErrors = "rule_errors"
    }

    public init(engines: [Engine], minimumSeverity: Severity, onlyPaths: [String: Set<String>] = [:]) {
        var projects: [Project] = []
        var diagnostics: [Diagnostic] = []
        var errors: [ModuleError] = []
        var files = 0
        for engine in engines {
            projects += engine.projectContexts.map { Project(root: engine.root, path: $0.directory, context: ContextJSON($0)) }
            var found = engine.diagnostics.filter { $0.severity >= minimumSeverity }
            if let only = onlyPaths[engine.root] { found = found.filter { only.contains($0.path) } }
            diagnostics += found
            files += engine.fileCount
            for e in engine.ruleErrors where !errors.contains(e) { errors.append(e) }
        }
        diagnostics.sort(by: Diagnostic.stableOrder)
        self.projects = projects
        self.diagnostics = diagnostics
        self.ruleErrors = errors
        summary = Summary(
            errors: diagnostics.count { $0.severity == .error }, warnings: diagnostics.count { $0.severity == .warning },
            infos: diagnostics.count { $0.severity == .info }, files: files)
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
