import Foundation
import SystemCalls
import Yams

/// Reads an XcodeGen project description (`project.yml`, or `project.json`: the same keys in
/// JSON) into the model an `.xcodeproj` gives, so its targets resolve the same way: `settings`
/// (flat, or `base` / `configs`), `configFiles`, `options.deploymentTarget`, and per target
/// `type`, `platform` (or `supportedDestinations`), `deploymentTarget`, `info.path`, `settings`,
/// `configFiles`. XcodeGen's setting presets are applied as it applies them (unless
/// `options.settingPresets: none`): for iOS `SDKROOT = iphoneos`, `TARGETED_DEVICE_FAMILY = 1,2`,
/// and `ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon` for applications. `include:` files are
/// merged under the file (XcodeGenIncludes.swift); `settings: groups:` name `settingGroups`.
public enum XcodeGenReader {
    public static let fileNames = ["project.yml", "project.json"]

    static let productTypes: [String: String] = [
        "application": "com.apple.product-type.application",
        "app-extension": "com.apple.product-type.app-extension",
        "extensionkit-extension": "com.apple.product-type.extensionkit-extension",
        "application.on-demand-install-capable": "com.apple.product-type.application.on-demand-install-capable",
        "application.watchapp2": "com.apple.product-type.application.watchapp2",
        "application.watchapp2-container": "com.apple.product-type.application.watchapp2-container",
        "watchkit2-extension": "com.apple.product-type.watchkit2-extension",
        "framework": "com.apple.product-type.framework", "framework.static": "com.apple.product-type.framework",
        "library.static": "com.apple.product-type.library.static", "bundle": "com.apple.product-type.bundle",
        "bundle.unit-test": "com.apple.product-type.bundle.unit-test", "bundle.ui-testing": "com.apple.product-type.bundle.ui-testing",
        "tool": "com.apple.product-type.tool",
    ]
    static let sdks = ["iOS": "iphoneos", "tvOS": "appletvos", "watchOS": "watchos", "macOS": "macosx", "visionOS": "xros"]
    static let deploymentKeys = [
        "iOS": "IPHONEOS_DEPLOYMENT_TARGET", "tvOS": "TVOS_DEPLOYMENT_TARGET", "watchOS": "WATCHOS_DEPLOYMENT_TARGET",
        "macOS": "MACOSX_DEPLOYMENT_TARGET", "visionOS": "XROS_DEPLOYMENT_TARGET",
    ]

    /// `path` is the root-relative project.yml / project.json.
    public static func read(_ path: String, files: some ProjectFileAccess) -> Result<(XcodeProject, [XcconfigProblem]), YAMLProblem> {
        guard case .success(let bytes) = files.read(path) else { return .failure(YAMLProblem(line: nil, message: "cannot be read")) }
        let root: Node?
        switch YAMLLimits.compose(String(decoding: bytes, as: UTF8.self)) {
        case .success(let r): root = r
        case .failure(let problem): return .failure(problem)
        }
        guard let main = root?.mapping else {
            return .failure(YAMLProblem(line: root?.line, message: "expected a mapping (name:, targets:)"))
        }
        var includes = Includes()
        let map = including(main, path: path, files: files, into: &includes)
        let problems = includes.problems
        let spec = XcodeGenSpec(path: path, map: map)
        let projectConfigurations = spec.configNames.map { config in
            XcodeProject.Configuration(
                name: config, settings: spec.assignments(map["settings"], config: config, detail: "project settings, \(config)"),
                baseConfiguration: spec.configFile(map["configFiles"], config: config), unresolvedBaseConfiguration: nil)
        }
        var targets: [XcodeProject.Target] = []
        for (key, target) in (map["targets"]?.mapping ?? [:]).sorted(by: { ($0.key.string ?? "") < ($1.key.string ?? "") }) {
            if let generated = spec.target(key, target) { targets.append(generated) }
        }
        let project = XcodeProject(
            directory: spec.directory, path: path, name: map["name"]?.string ?? RelativePath.name(spec.directory),
            configurations: projectConfigurations, defaultConfigurationName: spec.defaultConfiguration, targets: targets)
        return .success((project, problems))
    }

    /// A `sources` entry as it treats `.icon` bundles inside it: XcodeGen 2.45.1 and later make a
    /// `.icon` a file in the Resources phase (yonaskolb/XcodeGen #1600); earlier versions expand it
    /// into its files unless `options.fileTypes.icon.file: true` (issue #1556). Which XcodeGen
    /// runs is not in project.yml, so only an explicit `file: false` or a `buildPhase` other than
    /// resources counts against it.
    static func iconFolder(_ source: String, target: String, iconFileType: Node?) -> IconBundleMembership.Folder {
        var folder = IconBundleMembership.Folder(path: source, how: "XcodeGen sources \(source) of target \(target)")
        let file = YAMLLimits.bool(iconFileType?["file"])
        let phase = iconFileType?["buildPhase"]?.string
        if file == false {
            folder.typedOtherwise[source] = "loose files (options.fileTypes.icon.file: false in project.yml: make it true)"
        } else if let phase, phase != "resources" {
            folder.typedOtherwise[source] = "a \(phase) file (options.fileTypes.icon.buildPhase in project.yml: make it resources)"
        }
        return folder
    }
}

/// A parsed project.yml as XcodeGen generates from it: the configurations, the presets, and the
/// targets with their settings.
struct XcodeGenSpec {
    let path: String
    let map: Node.Mapping
    let directory: String
    let configNames: [String]
    let presets: String
    let projectDeployment: Node?

    init(path: String, map: Node.Mapping) {
        self.path = path
        self.map = map
        directory = RelativePath.parent(path)
        configNames = map["configs"]?.mapping.map { $0.compactMap { $0.key.string }.sorted() } ?? ["Debug", "Release"]
        presets = map["options"]?["settingPresets"]?.string ?? "all"
        projectDeployment = map["options"]?["deploymentTarget"]
    }

    var defaultConfiguration: String? { configNames.contains("Release") ? "Release" : configNames.last }

    func origin(_ node: Node?, _ detail: String) -> SettingOrigin { SettingOrigin(file: path, line: node?.line, detail: detail) }

    /// A `settings:` mapping for one configuration: plain, or structured (base, configs, groups).
    /// `groups:` name top-level `settingGroups` (themselves settings of either form), laid
    /// under the base and configuration settings as XcodeGen lays them.
    func assignments(_ settings: Node?, config: String, detail: String, depth: Int = 0) -> [SettingAssignment] {
        guard let settings, let m = settings.mapping else { return [] }
        let structured = m["base"] != nil || m["configs"] != nil || m["groups"] != nil
        var out: [SettingAssignment] = []
        if depth < 8 {
            let groups = m["groups"]?.sequence?.compactMap(\.string) ?? m["groups"]?.string.map { [$0] } ?? []
            for group in groups {
                guard let body = map["settingGroups"]?[group] ?? map["settingPresets"]?[group] else { continue }
                out += assignments(body, config: config, detail: "\(detail), setting group \(group)", depth: depth + 1)
            }
        }
        func add(_ node: Node?) {
            for (k, v) in node?.mapping ?? [:] {
                guard let key = k.string else { continue }
                let text = v.string ?? v.sequence?.compactMap(\.string).joined(separator: " ") ?? ""
                out.append(SettingAssignment(key: key, value: text, origin: origin(v, detail)))
            }
        }
        if structured {
            add(m["base"])
            for (k, v) in m["configs"]?.mapping ?? [:] where k.string?.lowercased() == config.lowercased() { add(v) }
        } else {
            add(settings)
        }
        return out
    }

    func configFile(_ node: Node?, config: String) -> String? {
        guard let file = node?[config]?.string, !file.hasPrefix("/") else { return nil }
        return RelativePath.normalize(RelativePath.join(directory, file))
    }

    /// The target with its `templates:` (`targetTemplates`) laid under it as XcodeGen merges them:
    /// mappings merged key by key, lists appended, any other value the target's own (templates
    /// may use templates; a cycle or a missing name adds nothing). `${target_name}` in a template
    /// is the target's name.
    func expandingTemplates(_ t: Node.Mapping, named name: String) -> Node.Mapping {
        var budget = Self.templateBudget
        return expandingTemplates(t, named: name, depth: 0, budget: &budget)
    }

    /// Template uses expanded for one target at most: a hostile project.yml whose templates each
    /// name ten others, eight deep, would otherwise ask for 10^8 merges.
    static let templateBudget = 64

    func expandingTemplates(_ t: Node.Mapping, named name: String, depth: Int, budget: inout Int) -> Node.Mapping {
        let names = t["templates"]?.sequence?.compactMap(\.string) ?? t["templates"]?.string.map { [$0] } ?? []
        guard !names.isEmpty, depth < 8 else { return t }
        var base = Node.Mapping([])
        for template in names {
            guard budget > 0, let body = map["targetTemplates"]?[template]?.mapping else { continue }
            budget -= 1
            base = Self.merge(base, expandingTemplates(body, named: name, depth: depth + 1, budget: &budget))
        }
        return Self.merge(Self.substituting(base, name: name), t)
    }

    /// XcodeGen's merge: `over` wins; mappings merge, sequences append.
    static func merge(_ under: Node.Mapping, _ over: Node.Mapping) -> Node.Mapping {
        var out = under
        for (key, value) in over {
            if let a = out[key]?.mapping, let b = value.mapping {
                out[key] = .mapping(merge(a, b))
            } else if let a = out[key]?.sequence, let b = value.sequence {
                out[key] = .sequence(Node.Sequence(Array(a) + Array(b)))
            } else {
                out[key] = value
            }
        }
        return out
    }

    static func substituting(_ m: Node.Mapping, name: String) -> Node.Mapping {
        func walk(_ node: Node) -> Node {
            switch node {
            case .scalar(let s) where s.string.contains("${target_name}"):
                return .scalar(Node.Scalar(s.string.replacingOccurrences(of: "${target_name}", with: name), s.tag, s.style, s.mark))
            case .mapping(let m): return .mapping(Node.Mapping(m.map { ($0.key, walk($0.value)) }, m.tag, m.style, m.mark))
            case .sequence(let q): return .sequence(Node.Sequence(q.map(walk), q.tag, q.style, q.mark))
            default: return node
            }
        }
        return Node.Mapping(m.map { ($0.key, walk($0.value)) }, m.tag, m.style, m.mark)
    }

    /// One target, with its settings in each configuration and what its sources folders bundle.
    func target(_ key: Node, _ target: Node) -> XcodeProject.Target? {
        guard let targetName = key.string, let raw = target.mapping else { return nil }
        let t = expandingTemplates(raw, named: targetName)
        let type = t["type"]?.string ?? ""
        // One platform; a list (or supportedDestinations) containing iOS is judged as its iOS variant.
        let platforms =
            t["platform"]?.sequence?.compactMap(\.string) ?? t["platform"]?.string.map { [$0] }
            ?? t["supportedDestinations"]?.sequence?.compactMap(\.string) ?? []
        let platform = platforms.contains("iOS") ? "iOS" : (platforms.first ?? "iOS")
        let configurations = configNames.map { config in
            XcodeProject.Configuration(
                name: config, settings: settings(t, key: key, type: type, platform: platform, config: config),
                baseConfiguration: configFile(t["configFiles"], config: config), unresolvedBaseConfiguration: nil)
        }
        var generated = XcodeProject.Target(
            id: targetName, name: targetName, productType: XcodeGenReader.productTypes[type] ?? type, configurations: configurations,
            defaultConfigurationName: defaultConfiguration, icons: IconBundleMembership(target: targetName))
        // XcodeGen bundles what its sources folders hold.
        let sources = t["sources"]?.sequence ?? t["sources"].map { [$0] } ?? []
        generated.resources = sources.compactMap { $0.string ?? $0["path"]?.string }.filter { !$0.hasPrefix("/") }
            .compactMap { RelativePath.normalize(RelativePath.join(directory, $0)) }
        generated.sources = generated.resources
        // `dependencies: - package: Name` on a `packages: Name: path:` entry: a package of the tree.
        generated.localPackages = (t["dependencies"]?.sequence ?? []).compactMap { dependency in
            guard let name = dependency["package"]?.string, let path = map["packages"]?[name]?["path"]?.string, !path.hasPrefix("/") else {
                return nil
            }
            return RelativePath.normalize(RelativePath.join(directory, path))
        }
        // `dependencies: - target: Name`: embedded when `embed:` says so, by default when the
        // target is an application (XcodeGen's documented default).
        let isApplication = generated.productType.hasPrefix("com.apple.product-type.application")
        generated.embeds = (t["dependencies"]?.sequence ?? []).compactMap { dependency in
            guard let name = dependency["target"]?.string else { return nil }
            let embed = YAMLLimits.bool(dependency["embed"]) ?? isApplication
            return embed ? name : nil
        }
        generated.icons.folders = generated.resources.map { source in
            XcodeGenReader.iconFolder(source, target: targetName, iconFileType: map["options"]?["fileTypes"]?["icon"])
        }
        return generated
    }

    /// A target's settings in one configuration: the platform preset, its deployment target and
    /// Info.plist, then its own settings.
    func settings(_ t: Node.Mapping, key: Node, type: String, platform: String, config: String) -> [SettingAssignment] {
        let detail = "target \(key.string ?? "")"
        var settings: [SettingAssignment] = []
        let presetOrigin = SettingOrigin(file: path, line: t["platform"]?.line ?? key.line, detail: "XcodeGen \(platform) preset")
        if presets == "all" || presets == "targets" {
            if let sdk = XcodeGenReader.sdks[platform] {
                settings.append(SettingAssignment(key: "SDKROOT", value: sdk, origin: presetOrigin))
            }
            if platform == "iOS" {
                settings.append(SettingAssignment(key: "TARGETED_DEVICE_FAMILY", value: "1,2", origin: presetOrigin))
                if type == "application" {
                    settings.append(SettingAssignment(key: "ASSETCATALOG_COMPILER_APPICON_NAME", value: "AppIcon", origin: presetOrigin))
                }
            }
        }
        let deployment = t["deploymentTarget"]?.string ?? projectDeployment?[platform]?.string
        if let deployment, let key = XcodeGenReader.deploymentKeys[platform] {
            let node = t["deploymentTarget"] ?? projectDeployment?[platform]
            settings.append(SettingAssignment(key: key, value: deployment, origin: origin(node, detail)))
        }
        if let info = t["info"]?["path"] {
            settings.append(SettingAssignment(key: "INFOPLIST_FILE", value: info.string ?? "", origin: origin(info, detail)))
        }
        return settings + assignments(t["settings"], config: config, detail: detail)
    }
}
