import Findings
import Foundation
import SystemCalls

/// Where one piece of the context came from, reported with the results.
public enum ContextSource: String, Sendable, Hashable, Codable {
    case config = ".reswatch.yaml"
    case pbxproj = "project.pbxproj"
    case infoPlist = "Info.plist"
    case defaults = "default"
}

/// Everything a rule may depend on about the project a file belongs to (rules.md, "Project context").
public struct ProjectContext: Sendable, Hashable {
    /// Root-relative project directory ("" for the root itself).
    public var directory: String
    public var devices: Set<Device> = [.iphone, .ipad]
    public var deploymentTarget = OSVersion(12, 0)
    public var distribution = Distribution.appStore
    public var appIconName: String?
    public var launchImageName: String?
    /// Root-relative path of the Info.plist in use, if one was found.
    public var infoPlist: String?
    /// Why that Info.plist was chosen (or why none was), shown with the context.
    public var infoPlistReason: String?
    /// Xcode generates part of Info.plist from build settings (GENERATE_INFOPLIST_FILE = YES).
    public var infoPlistGenerated = false
    /// Build settings may come from .xcconfig files that were not read: what they would set is unknown.
    public var buildSettingsIncomplete = false
    /// The Xcode target the context is the app's, and the configuration that ships (and why).
    public var targetName: String?
    public var configuration: String?
    public var configurationReason: String?
    /// Where each build-setting value came from ("devices" → "App.xcconfig:3", "Xcode default" …).
    public var origins: [String: String] = [:]
    /// Alternate app icons the build includes (`ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES`,
    /// or every app icon set with `…_INCLUDE_ALL_APPICON_ASSETS = YES`).
    public var alternateAppIconNames: [String] = []
    public var includesAllAppIcons = false
    /// The app icon sets each configuration of the app target builds with (empty when unknown).
    public var iconNamesByConfiguration: [String: [String]] = [:]
    /// The project's other targets (extensions, watch apps, other platforms, other apps).
    public var otherTargets: [OtherTarget] = []
    /// Every iOS app target of the project (the primary one first); each gets its own context.
    public var appTargets: [String] = []
    /// Paths the app target owns: its bundled resources and its Info.plist's folder.
    public var ownedPaths: [String] = []
    /// The Icon Composer bundles (`.icon`) the app target compiles; nil when no target was read
    /// (then any `.icon` of the project may be the app's).
    public var iconBundles: IconBundleMembership?
    /// The app target's build settings in the configuration that ships (nil: no target read).
    public var appSettings: ResolvedBuildSettings?
    /// What the app target compiles (root-relative files and folders; empty when not known).
    public var appSources: [String] = []
    /// What the context was read from, or could not be (shown with it).
    public var notes: [String] = []
    public var ignore: [String] = []
    public var disabledRules: Set<String> = []
    public var severityOverrides: [String: SeverityOverride] = [:]
    public var sources: [String: ContextSource] = [
        "devices": .defaults, "deployment-target": .defaults, "distribution": .defaults,
    ]
    /// Problems found while reading the context's own files (the engine reports each one).
    public var problems: [ContextProblem] = []
    /// Lines in `.reswatch.yaml` of each rule id and glob it names (for problems found later).
    public var ruleIdLines: [String: Int] = [:]
    public var ignoreLines: [String: Int] = [:]

    public init(directory: String) { self.directory = directory }

    /// For an app icon set name: nil when some configuration builds with it (or that cannot be
    /// known); otherwise what the configurations use instead.
    public func unshippedIconSetReason(_ name: String) -> String? {
        guard targetName != nil, !iconNamesByConfiguration.isEmpty, !buildSettingsIncomplete, !includesAllAppIcons,
            !alternateAppIconNames.contains(name), appIconName != name
        else { return nil }
        if iconNamesByConfiguration.values.contains(where: { $0.contains(name) }) { return nil }
        let used = iconNamesByConfiguration.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.first ?? "none")" }
        return "no configuration of \(targetName!) builds with it (\(used.joined(separator: ", ")))"
    }

    /// Why the devices are what they are, for findings that depend on them: "TARGETED_DEVICE_FAMILY
    /// = 1,2 in App.xcconfig:3", "devices in .reswatch.yaml", or that reswatch assumed them.
    public var devicesBecause: String {
        let family = Device.allCases.filter { devices.contains($0) }.map { $0 == .iphone ? "1" : "2" }.joined(separator: ",")
        switch sources["devices"] {
        case .config:
            return "devices: [\(Device.allCases.filter { devices.contains($0) }.map(\.rawValue).joined(separator: ", "))] in .reswatch.yaml"
        case .pbxproj: return "TARGETED_DEVICE_FAMILY = \(family)" + (origins["devices"].map { " in \($0)" } ?? "")
        case .infoPlist: return "UIDeviceFamily = \(family) in Info.plist"
        default:
            let why = origins["devices"].map { "; \($0)" } ?? ""
            return "no setting names the devices, so reswatch assumes iPhone and iPad\(why); set devices: in .reswatch.yaml"
        }
    }

    /// Why the deployment target is what it is (same forms as `devicesBecause`).
    public var deploymentTargetBecause: String {
        switch sources["deployment-target"] {
        case .config: return "deployment-target in .reswatch.yaml"
        case .pbxproj: return "IPHONEOS_DEPLOYMENT_TARGET" + (origins["deployment-target"].map { " in \($0)" } ?? "")
        case .infoPlist: return "MinimumOSVersion in Info.plist"
        default: return "no setting names it, so reswatch assumes \(deploymentTarget)"
        }
    }

    /// The other target whose folder holds `path` (most specific folder), unless the path is in
    /// the app's own folder more specifically (its Info.plist's folder).
    public func otherTarget(containing path: String) -> OtherTarget? {
        // The most specific owned path decides: the app's own (resources, Info.plist folder) or
        // another target's (its resources or folder).
        func depth(_ paths: [String]) -> Int {
            paths.filter { RelativePath.isWithin(path, $0) }.map { $0.isEmpty ? 0 : $0.utf8.count + 1 }.max() ?? -1
        }
        var best: (OtherTarget, Int)?
        for target in otherTargets {
            let d = depth(target.paths)
            if d >= 0, d > (best?.1 ?? -1) { best = (target, d) }
        }
        guard let (owner, ownerDepth) = best else { return nil }
        let own = depth(ownedPaths + (infoPlist.map { [RelativePath.parent($0)] } ?? []))
        return own >= ownerDepth ? nil : owner
    }
}

/// A target of the project that is not the app reswatch judges (an extension, a watch app, a tvOS
/// app, a second app).
public struct OtherTarget: Sendable, Hashable {
    public let name: String
    /// "app extension", "tvOS application" …
    public let kind: String
    public let platform: ResolvedTarget.Platform
    public let productType: String
    /// Root-relative folder of its resources (its Info.plist's folder), if known.
    public let directory: String?
    /// What it bundles (root-relative), from the project.
    public var resources: [String] = []
    /// Its folder and its resources.
    public var paths: [String] { (directory.map { [$0] } ?? []) + resources }
    /// `ASSETCATALOG_COMPILER_APPICON_NAME` in the configuration it ships with.
    public var appIconName: String?
    /// Its build settings in the configuration it ships with, its `INFOPLIST_FILE`
    /// (root-relative), and whether an .xcconfig it may take settings from was not read.
    public var settings: ResolvedBuildSettings?
    public var infoPlistFile: String?
    /// What it compiles (root-relative files and folders).
    public var sources: [String] = []
    public var settingsIncomplete = false
    /// The Icon Composer bundles it compiles.
    public var iconBundles: IconBundleMembership?
    /// Not judged as an iOS app (another platform, or a second app): said once as
    /// project.not-checked, with what of it is judged (`judgedPart`).
    public let notChecked: Bool

    /// What reswatch judges of a target it does not judge as an iOS app (docs/rules.md, "Platforms").
    public var judgedPart: String {
        let isApp = productType == "com.apple.product-type.application" || productType.contains("watchapp2")
        switch platform {
        case .watchOS where isApp && !productType.hasSuffix("container"):
            return
                "only its app icon set is checked (icon.watch-marketing-missing, icon.watch-alpha, icon.size-mismatch); its Info.plist and other resources are not"
        case .tvOS where isApp:
            return
                "only its App Icon & Top Shelf brand assets are checked (tv.appstore-icon, tv.size-mismatch); its Info.plist and other resources are not"
        default:
            return "not checked; reswatch validates iOS apps and their extensions, watch app icons and tvOS brand assets"
        }
    }
}

/// Resolves a project's context from `.reswatch.yaml`, then `project.pbxproj`, then Info.plist, then defaults.
public enum ContextResolver {
    /// `infoPlistCandidates`: every Info.plist / *-Info.plist of the project (root-relative), for
    /// finding the app's own when no setting names it.
    /// One context per iOS app of the project (the primary app first; a project without an Xcode
    /// project or with one app has one). Each app is judged with its own settings, on the paths
    /// its target owns (`ownedPaths`).
    public static func resolveAll(projectDirectory dir: String, files: some ProjectFileAccess, infoPlistCandidates: [String] = [])
        -> [ProjectContext]
    {
        let primary = resolve(projectDirectory: dir, files: files, infoPlistCandidates: infoPlistCandidates)
        var contexts = [primary]
        for app in primary.appTargets.dropFirst() {
            contexts.append(resolve(projectDirectory: dir, files: files, infoPlistCandidates: infoPlistCandidates, app: app))
        }
        // A secondary app's own problems name it (the project's are reported once, by the primary).
        for i in contexts.indices.dropFirst() {
            let name = contexts[i].targetName ?? "?"
            contexts[i].problems = contexts[i].problems.filter { !primary.problems.contains($0) }.map {
                ContextProblem($0.kind, path: $0.path, line: $0.line, message: "target \(name): \($0.message)")
            }
        }
        return contexts
    }

    public static func resolve(
        projectDirectory dir: String, files: some ProjectFileAccess, infoPlistCandidates: [String] = [], app: String? = nil
    ) -> ProjectContext {
        var context = ProjectContext(directory: dir)

        // 1. .reswatch.yaml
        var config = ProjectConfig()
        var marked = false
        let configPath = RelativePath.join(dir, ".reswatch.yaml")
        switch files.read(configPath) {
        case .success(let bytes):
            marked = true
            let (parsed, problems) = ProjectConfigReader.parse(String(decoding: bytes, as: UTF8.self))
            config = parsed
            context.problems += problems.map { ContextProblem(.configInvalid, path: configPath, line: $0.line, message: $0.message) }
        case .failure(let error) where !error.isNotFound:
            context.problems.append(
                ContextProblem(.configInvalid, path: configPath, line: nil, message: "cannot be read: \(error.reason); it is not applied"))
        case .failure: break
        }

        // 2. *.xcodeproj: the iOS app target's settings in the configuration that ships.
        var pbx = PBXBuildSettings()
        var xcodeprojName: String?
        let projects = (try? files.list(dir).get())?.filter { $0.isDirectory && $0.name.hasSuffix(".xcodeproj") }.map(\.name).sorted() ?? []
        for name in projects {
            marked = true
            let path = RelativePath.join(dir, name)
            switch XcodeProjectReader.read(path, files: files) {
            case .success(let project):
                let settings = PBXProjectReader.settings(project, files: files, app: app)
                // The first project with an iOS app is the app's; the others' targets are noted.
                if pbx.targetName == nil, settings.targetName != nil || xcodeprojName == nil {
                    let others = pbx.targets
                    pbx = settings
                    pbx.targets += others
                    xcodeprojName = project.name
                } else {
                    pbx.targets += settings.targets
                }
            case .failure(let e):
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
        // No checked-in .xcodeproj: an XcodeGen description is the project (Tuist manifests are
        // Swift code, which reswatch does not run: said in the context).
        let listing = (try? files.list(dir).get()) ?? []
        if projects.isEmpty, let spec = XcodeGenReader.fileNames.first(where: { n in listing.contains { $0.name == n && !$0.isDirectory } })
        {
            marked = true
            let path = RelativePath.join(dir, spec)
            switch XcodeGenReader.read(path, files: files) {
            case .success(let (project, problems)):
                pbx = PBXProjectReader.settings(project, files: files)
                pbx.problems += problems
                xcodeprojName = project.name
                context.notes.append("project from the XcodeGen description \(spec)")
            case .failure(let problem):
                context.problems.append(
                    ContextProblem(
                        .pbxprojInvalid, path: path, line: problem.line,
                        message: "\(spec) (XcodeGen) cannot be read: \(problem.message); its build settings are not used"))
            }
        }
        // A Tuist manifest: its literal arguments are read (the Swift code is never run).
        if projects.isEmpty, xcodeprojName == nil, listing.contains(where: { $0.name == TuistReader.fileName && !$0.isDirectory }) {
            marked = true
            let path = RelativePath.join(dir, TuistReader.fileName)
            switch TuistReader.read(path, files: files) {
            case .success(let (project, notes)):
                pbx = PBXProjectReader.settings(project, files: files, app: app)
                xcodeprojName = project.name
                context.notes.append("project from the Tuist manifest \(TuistReader.fileName) (its literal arguments)")
                context.notes += notes
            case .failure(let failure):
                context.problems.append(
                    ContextProblem(
                        .pbxprojInvalid, path: path, line: failure.line,
                        message: "\(TuistReader.fileName) (Tuist) \(failure.message); its settings are not used"))
            }
        } else if projects.isEmpty, xcodeprojName == nil, listing.contains(where: { $0.name == "Tuist" || $0.name == "Workspace.swift" }) {
            context.notes.append(
                "a Tuist workspace without Project.swift here: its projects were not read; generate the .xcodeproj, or set the context in .reswatch.yaml"
            )
        }
        for problem in pbx.problems {
            context.problems.append(
                ContextProblem(.xcconfigProblem, path: problem.file, line: problem.line > 0 ? problem.line : nil, message: problem.message))
        }
        context.targetName = pbx.targetName
        context.appTargets = pbx.appTargets
        context.ownedPaths = pbx.resources
        context.iconBundles = pbx.icons
        context.appSettings = pbx.targets.first { $0.name == pbx.targetName }?.settings
        context.appSources = pbx.sources
        context.configuration = pbx.configuration
        context.configurationReason = pbx.configurationReason
        context.alternateAppIconNames = pbx.alternateAppIconNames
        context.includesAllAppIcons = pbx.includesAllAppIcons
        context.iconNamesByConfiguration = pbx.iconNamesByConfiguration
        context.otherTargets = otherTargets(pbx, projectDirectory: dir, files: files)
        for target in context.otherTargets where target.notChecked {
            context.problems.append(
                ContextProblem(
                    .notChecked, path: target.directory ?? dir, line: nil,
                    message: "\(target.name) (\(target.kind)): \(target.judgedPart)"))
        }

        // 3. Info.plist
        let located = locateInfoPlist(
            dir: dir, pbx: pbx, config: config, xcodeprojName: xcodeprojName, candidates: infoPlistCandidates, marked: marked,
            files: files)
        context.infoPlist = located.path
        context.infoPlistReason = located.reason
        if let problem = located.problem { context.problems.append(problem) }
        // An Info.plist with NSExtension is an extension's, whether or not its target could be
        // read: its folder holds the extension's resources, not the app's.
        for candidate in infoPlistCandidates where candidate != context.infoPlist {
            let folder = RelativePath.parent(candidate)
            guard folder != dir, !context.otherTargets.contains(where: { $0.directory == folder }),
                case .success(let bytes) = files.read(candidate), case .success(let (plist, _)) = PropertyListReader.parse(bytes),
                plist["NSExtension"] != nil || plist["EXAppExtensionAttributes"] != nil
            else { continue }
            context.otherTargets.append(
                OtherTarget(
                    name: RelativePath.name(folder), kind: "app extension (NSExtension in its Info.plist)", platform: .iOS,
                    productType: "com.apple.product-type.app-extension", directory: folder, notChecked: false))
        }
        var plist: PlistValue?
        if let path = context.infoPlist, case .success(let bytes) = files.read(path),
            case .success(let (value, _)) = PropertyListReader.parse(bytes)
        {
            plist = value
        }
        let plistDevices: Set<Device>? = plist?["UIDeviceFamily"].flatMap { value in
            let numbers: [String] = value.array?.compactMap(\.text) ?? value.text.map { [$0] } ?? []
            let set = Set(numbers.compactMap { $0 == "1" ? Device.iphone : ($0 == "2" ? Device.ipad : nil) })
            return set.isEmpty ? nil : set
        }
        let plistTarget = plist?["MinimumOSVersion"]?.text.flatMap(OSVersion.init)

        for (key, name) in [
            ("TARGETED_DEVICE_FAMILY", "devices"), ("IPHONEOS_DEPLOYMENT_TARGET", "deployment-target"),
            ("ASSETCATALOG_COMPILER_APPICON_NAME", "app-icon"),
        ] {
            if let why = pbx.unknown[key] { context.origins[name] = "\(key) unknown (\(why))" }
        }
        if let d = config.devices {
            context.devices = d; context.sources["devices"] = .config
        } else if let d = pbx.deviceFamily {
            context.devices = d; context.sources["devices"] = .pbxproj
            context.origins["devices"] = pbx.origins["TARGETED_DEVICE_FAMILY"]?.description
        } else if let d = plistDevices {
            context.devices = d; context.sources["devices"] = .infoPlist
        }

        if let t = config.deploymentTarget {
            context.deploymentTarget = t; context.sources["deployment-target"] = .config
        } else if let t = pbx.deploymentTarget {
            context.deploymentTarget = t; context.sources["deployment-target"] = .pbxproj
            context.origins["deployment-target"] = pbx.origins["IPHONEOS_DEPLOYMENT_TARGET"]?.description
        } else if let t = plistTarget {
            context.deploymentTarget = t; context.sources["deployment-target"] = .infoPlist
        }

        if let d = config.distribution { context.distribution = d; context.sources["distribution"] = .config }

        if let n = config.appIcon {
            context.appIconName = n; context.sources["app-icon"] = .config
        } else if let n = pbx.appIconName {
            context.appIconName = n; context.sources["app-icon"] = .pbxproj
            context.origins["app-icon"] = pbx.origins["ASSETCATALOG_COMPILER_APPICON_NAME"]?.description
        } else if let n = plist?["CFBundleIconName"]?.string, !n.isEmpty {
            context.appIconName = n; context.sources["app-icon"] = .infoPlist
        }

        if let n = config.launchImage {
            context.launchImageName = n; context.sources["launch-image"] = .config
        } else if let n = pbx.launchImageName {
            context.launchImageName = n; context.sources["launch-image"] = .pbxproj
            context.origins["launch-image"] = pbx.origins["ASSETCATALOG_COMPILER_LAUNCHIMAGE_NAME"]?.description
        }

        context.infoPlistGenerated = pbx.generatesInfoPlist
        context.buildSettingsIncomplete = pbx.mayUseXcconfig
        context.ignore = config.ignore
        context.disabledRules = config.disabled
        context.severityOverrides = config.severity
        context.ruleIdLines = config.ruleIdLines
        context.ignoreLines = config.ignoreLines
        return context
    }

}
