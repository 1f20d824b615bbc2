import Findings
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
    /// The app's Info.plist, relative to the project directory (`info-plist:`).
    public var infoPlist: String?
    /// Lines of each rule id and glob, for diagnostics about them.
    public var ruleIdLines: [String: Int] = [:]
    public var ignoreLines: [String: Int] = [:]

    public init() {}
}

public enum Device: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case iphone, ipad
    public static func < (a: Device, b: Device) -> Bool { a.rawValue < b.rawValue }

    /// Every set of devices, made once, by the bits of `allCases` it holds.
    private static let sets: [Set<Device>] = (0..<(1 << allCases.count)).map { bits in
        Set(allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
    }

    /// The set of these devices made once and shared: a project's context holds one of these,
    /// not a set of its own (a heap block of 66 bytes a project, for 1,000 roots 66 kB).
    public static func shared(_ devices: Set<Device>) -> Set<Device> {
        var bits = 0
        for (i, d) in allCases.enumerated() where devices.contains(d) { bits |= 1 << i }
        return sets[bits]
    }
}

public enum Distribution: String, Sendable, Hashable, Codable {
    case appStore = "app-store"
    case adHoc = "ad-hoc"
}

/// A problem in a YAML file, with its 1-based line.
extension ProjectConfig {
    /// This project's configuration with `overlay` over it (`reswatch check --config FILE`,
    /// `--ignore`): the overlay's settings win, its disabled rules, severities and ignore globs are
    /// added.
    public func overlaid(by overlay: ProjectConfig) -> ProjectConfig {
        var out = self
        out.devices = overlay.devices ?? devices
        out.deploymentTarget = overlay.deploymentTarget ?? deploymentTarget
        out.distribution = overlay.distribution ?? distribution
        out.appIcon = overlay.appIcon ?? appIcon
        out.launchImage = overlay.launchImage ?? launchImage
        out.infoPlist = overlay.infoPlist ?? infoPlist
        out.ignore += overlay.ignore.filter { !ignore.contains($0) }
        out.disabled.formUnion(overlay.disabled)
        out.severity.merge(overlay.severity) { _, new in new }
        return out
    }
}

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

/// One problem in a project's configuration files (`.reswatch.yaml`, `project.pbxproj`, the
/// choice of Info.plist): reported as a diagnostic with its file and line, never silently dropped.
public struct ContextProblem: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `.reswatch.yaml` did not parse, or a key or value is wrong: error (not applied).
        case configInvalid
        /// A rule id or `ignore` glob that names nothing: warning (applied, but does nothing).
        case configIneffective
        /// `project.pbxproj` did not parse: its build settings are not used.
        case pbxprojInvalid
        /// No single app Info.plist could be chosen: info.
        case infoPlistUnresolved
        /// An xcconfig `#include` or base configuration that could not be read: info.
        case xcconfigProblem
        /// A target reswatch does not judge (tvOS, watchOS, a second app …): info, once.
        case notChecked
        /// Files no product ships (a catalog no target bundles): info, once.
        case leftOut
    }
    public let kind: Kind
    /// Root-relative path of the file the problem is in.
    public let path: String
    public let line: Int?
    public let message: String

    public init(_ kind: Kind, path: String, line: Int?, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.message = message
    }
}

public enum ProjectConfigReader {
    public static let knownKeys: Set<String> = [
        "devices", "deployment-target", "distribution", "app-icon", "launch-image", "info-plist", "ignore", "rules",
    ]

    /// Parses `.reswatch.yaml`. Every problem is returned with its line; a key with a problem is not
    /// applied, the others are. A file that is not YAML applies nothing.
    public static func parse(_ source: String) -> (config: ProjectConfig, problems: [YAMLProblem]) {
        let root: Node?
        switch YAMLLimits.compose(source) {
        case .success(let r): root = r
        case .failure(let problem): return (ProjectConfig(), [problem])
        }
        guard let root else { return (ProjectConfig(), []) }
        guard let map = root.mapping else {
            return (ProjectConfig(), [YAMLProblem(line: root.line, message: "expected a mapping of settings (key: value)")])
        }
        var parser = ProjectConfigParser()
        for (keyNode, value) in map { parser.setting(keyNode, value) }
        return (parser.config, parser.problems)
    }
}

/// One parse of `.reswatch.yaml`: the settings applied so far and the problems found.
struct ProjectConfigParser {
    var config = ProjectConfig()
    var problems: [YAMLProblem] = []

    mutating func problem(_ node: Node, _ message: String) { problems.append(YAMLProblem(line: node.line, message: message)) }

    mutating func text(_ node: Node, _ key: String, _ expected: String) -> String? {
        guard case .scalar = node, let s = node.string, !s.isEmpty else {
            problem(node, "\(key): expected \(expected)")
            return nil
        }
        return s
    }

    mutating func setting(_ keyNode: Node, _ value: Node) {
        guard let key = keyNode.string else { return problem(keyNode, "a setting's name must be a string") }
        switch key {
        case "devices": devices(value)
        case "deployment-target":
            guard let t = text(value, key, "a version such as \"12.0\"") else { return }
            guard let v = OSVersion(t) else {
                return problem(value, "deployment-target: expected a version such as \"12.0\", not '\(Quoted.text(t))'")
            }
            config.deploymentTarget = v
        case "distribution":
            guard let t = text(value, key, "app-store or ad-hoc") else { return }
            guard let d = Distribution(rawValue: t) else {
                return problem(value, "distribution: expected app-store or ad-hoc, not '\(Quoted.text(t))'")
            }
            config.distribution = d
        case "app-icon": config.appIcon = text(value, key, "the name of an .appiconset (such as AppIcon)")
        case "launch-image": config.launchImage = text(value, key, "the name of a .launchimage set")
        case "info-plist": config.infoPlist = text(value, key, "the app's Info.plist, relative to this file")
        case "ignore": ignore(value)
        case "rules": rules(value)
        default:
            let known = ProjectConfigReader.knownKeys
            let close = known.filter { EditDistance.isClose(key, $0) }.sorted()
            let hint = close.isEmpty ? "" : "did you mean \(close.joined(separator: " or "))? "
            problem(keyNode, "unknown setting '\(Quoted.text(key))' (\(hint)known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    mutating func devices(_ value: Node) {
        guard let items = value.sequence else { return problem(value, "devices: expected a list such as [iphone, ipad]") }
        var set = Set<Device>()
        var ok = true
        for item in items {
            guard let name = item.string, let d = Device(rawValue: name.lowercased()) else {
                problem(item, "devices: unknown device '\(Quoted.text(item.string ?? "?"))' (use iphone, ipad)")
                ok = false
                continue
            }
            set.insert(d)
        }
        if ok && set.isEmpty { problem(value, "devices: the list is empty (use iphone, ipad or both)") }
        if ok && !set.isEmpty { config.devices = set }
    }

    mutating func ignore(_ value: Node) {
        guard let items = value.sequence else { return problem(value, "ignore: expected a list of globs") }
        for item in items {
            guard let glob = text(item, "ignore", "a glob such as \"**/Generated/*.png\"") else { continue }
            config.ignore.append(glob)
            config.ignoreLines[glob] = item.line
        }
    }

    mutating func rules(_ value: Node) {
        guard let rules = value.mapping else { return problem(value, "rules: expected disable: and/or severity:") }
        for (k, v) in rules {
            switch k.string {
            case "disable": disable(v)
            case "severity": severity(v)
            default: problem(k, "rules: unknown key '\(Quoted.text(k.string ?? "?"))' (use disable, severity)")
            }
        }
    }

    mutating func disable(_ v: Node) {
        guard let items = v.sequence else { return problem(v, "rules.disable: expected a list of rule ids") }
        for item in items {
            guard let id = text(item, "rules.disable", "a rule id such as icon.legacy-slot") else { continue }
            config.disabled.insert(id)
            config.ruleIdLines[id] = item.line
        }
    }

    mutating func severity(_ v: Node) {
        guard let m = v.mapping else { return problem(v, "rules.severity: expected id: error|warning|info|off") }
        for (idNode, sevNode) in m {
            guard let id = idNode.string else {
                problem(idNode, "rules.severity: expected a rule id")
                continue
            }
            guard let s = sevNode.string, let o = SeverityOverride(rawValue: s) else {
                problem(sevNode, "rules.severity: \(id): expected error, warning, info or off")
                continue
            }
            config.severity[id] = o
            config.ruleIdLines[id] = idNode.line
        }
    }
}

/// Closeness of names, for "did you mean" hints.
/// A name from a file or the command line as a message quotes it: at most 80 characters (a
/// hostile megabyte-long key is not copied into every diagnostic).
public enum Quoted {
    public static func text(_ s: String) -> String {
        s.unicodeScalars.count <= 80 ? s : String(String.UnicodeScalarView(s.unicodeScalars.prefix(80))) + "… (\(s.utf8.count) bytes)"
    }
}

public enum EditDistance {
    /// Levenshtein distance; names whose lengths differ by more than 64 get the longer length
    /// (no such name is a suggestion, and a hostile megabyte-long name costs nothing).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        if abs(a.count - b.count) > 64 { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Close enough to be a likely typo: a small edit, or the same last component (`icon.legacy` vs `icon.legacy-slot`).
    public static func isClose(_ a: String, _ b: String) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        let limit = max(1, min(a.count, b.count) / 4)
        // The distance is at least the difference in length: most pairs need no table.
        if abs(a.count - b.count) <= limit, distance(a.lowercased(), b.lowercased()) <= limit { return true }
        let lastA = a.split(separator: ".").last.map(String.init) ?? a
        let lastB = b.split(separator: ".").last.map(String.init) ?? b
        return lastA.count >= 4 && (lastB.hasPrefix(lastA) || lastA == lastB)
    }
}
