import Yams

/// The contents of a project's `.reswatch.yaml` (rules.md, "Project context").
public struct ProjectConfig: Sendable, Hashable {
    public var devices: Set<Device>?
    public var deploymentTarget: OSVersion?
    public var distribution: Distribution?
    public var appIcon: String?
    public var launchImage: String?
    public var ignore: [String] = []
    public var disabled: Set<String> = []
    public var severity: [String: SeverityOverride] = [:]

    public init() {}
}

public enum Device: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case iphone, ipad
    public static func < (a: Device, b: Device) -> Bool { a.rawValue < b.rawValue }
}

public enum Distribution: String, Sendable, Hashable, Codable {
    case appStore = "app-store"
    case adHoc = "ad-hoc"
}

/// A problem in a YAML file, with its 1-based line.
public struct YAMLProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let line: Int?
    public let message: String
    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }
    public var description: String { (line.map { "line \($0): " } ?? "") + message }

    public static func from(_ error: any Error) -> YAMLProblem {
        if let yaml = error as? YamlError {
            switch yaml {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
                return YAMLProblem(line: mark.line, message: problem)
            case .composer(_, let problem, let mark, _):
                return YAMLProblem(line: mark.line, message: problem)
            default:
                return YAMLProblem(line: nil, message: "\(yaml)")
            }
        }
        return YAMLProblem(line: nil, message: "\(error)")
    }
}

extension Node {
    /// 1-based line of this node in its file.
    public var line: Int? { mark.map { $0.line } }
}

public enum ProjectConfigReader {
    public static let knownKeys: Set<String> = [
        "devices", "deployment-target", "distribution", "app-icon", "launch-image", "ignore", "rules",
    ]

    public static func parse(_ text: String) -> Result<ProjectConfig, YAMLProblem> {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { return .failure(.from(error)) }
        guard let root else { return .success(ProjectConfig()) }
        guard let map = root.mapping else { return .failure(YAMLProblem(line: root.line, message: "expected a mapping of settings")) }
        var config = ProjectConfig()
        for (keyNode, value) in map {
            guard let key = keyNode.string else { continue }
            switch key {
            case "devices":
                guard let items = value.sequence else {
                    return .failure(YAMLProblem(line: value.line, message: "devices: expected a list such as [iphone, ipad]"))
                }
                var set = Set<Device>()
                for item in items {
                    guard let name = item.string, let d = Device(rawValue: name.lowercased()) else {
                        return .failure(
                            YAMLProblem(line: item.line, message: "devices: unknown device '\(item.string ?? "?")' (use iphone, ipad)"))
                    }
                    set.insert(d)
                }
                config.devices = set
            case "deployment-target":
                guard let text = value.string, let v = OSVersion(text) else {
                    return .failure(YAMLProblem(line: value.line, message: "deployment-target: expected a version such as \"12.0\""))
                }
                config.deploymentTarget = v
            case "distribution":
                guard let text = value.string, let d = Distribution(rawValue: text) else {
                    return .failure(YAMLProblem(line: value.line, message: "distribution: expected app-store or ad-hoc"))
                }
                config.distribution = d
            case "app-icon": config.appIcon = value.string
            case "launch-image": config.launchImage = value.string
            case "ignore":
                guard let items = value.sequence else {
                    return .failure(YAMLProblem(line: value.line, message: "ignore: expected a list of globs"))
                }
                config.ignore = items.compactMap(\.string)
            case "rules":
                guard let rules = value.mapping else {
                    return .failure(YAMLProblem(line: value.line, message: "rules: expected disable: and/or severity:"))
                }
                for (k, v) in rules {
                    switch k.string {
                    case "disable":
                        guard let items = v.sequence else {
                            return .failure(YAMLProblem(line: v.line, message: "rules.disable: expected a list of rule ids"))
                        }
                        config.disabled.formUnion(items.compactMap(\.string))
                    case "severity":
                        guard let m = v.mapping else {
                            return .failure(YAMLProblem(line: v.line, message: "rules.severity: expected id: error|warning|info|off"))
                        }
                        for (idNode, sevNode) in m {
                            guard let id = idNode.string, let s = sevNode.string, let o = SeverityOverride(rawValue: s) else {
                                return .failure(
                                    YAMLProblem(line: sevNode.line, message: "rules.severity: expected error, warning, info or off"))
                            }
                            config.severity[id] = o
                        }
                    default:
                        return .failure(
                            YAMLProblem(line: k.line, message: "rules: unknown key '\(k.string ?? "?")' (use disable, severity)"))
                    }
                }
            default:
                return .failure(
                    YAMLProblem(
                        line: keyNode.line, message: "unknown setting '\(key)' (known: \(knownKeys.sorted().joined(separator: ", ")))"))
            }
        }
        return .success(config)
    }
}
