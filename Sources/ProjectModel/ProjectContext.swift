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
    /// Xcode generates part of Info.plist from build settings (GENERATE_INFOPLIST_FILE = YES).
    public var infoPlistGenerated = false
    public var ignore: [String] = []
    public var disabledRules: Set<String> = []
    public var severityOverrides: [String: SeverityOverride] = [:]
    public var sources: [String: ContextSource] = [
        "devices": .defaults, "deployment-target": .defaults, "distribution": .defaults,
    ]
    /// Problems found while reading the context's own files (reported as diagnostics by rules).
    public var configProblem: YAMLProblem?
    public var pbxprojProblem: PlistError?

    public init(directory: String) { self.directory = directory }

    public var isIPhoneOnly: Bool { devices == [.iphone] }
    public var isIPadOnly: Bool { devices == [.ipad] }
}

/// Resolves a project's context from `.reswatch.yaml`, then `project.pbxproj`, then Info.plist, then defaults.
public enum ContextResolver {
    public static func resolve(projectDirectory dir: String, files: some ProjectFileAccess) -> ProjectContext {
        var context = ProjectContext(directory: dir)

        // 1. .reswatch.yaml
        var config = ProjectConfig()
        if case .success(let bytes) = files.read(RelativePath.join(dir, ".reswatch.yaml")) {
            switch ProjectConfigReader.parse(String(decoding: bytes, as: UTF8.self)) {
            case .success(let c): config = c
            case .failure(let problem): context.configProblem = problem
            }
        }

        // 2. *.xcodeproj/project.pbxproj
        var pbx = PBXBuildSettings()
        var xcodeprojName: String?
        if case .success(let entries) = files.list(dir),
            let proj = entries.first(where: { $0.isDirectory && $0.name.hasSuffix(".xcodeproj") })
        {
            xcodeprojName = String(proj.name.dropLast(".xcodeproj".count))
            if case .success(let bytes) = files.read(RelativePath.join(dir, proj.name + "/project.pbxproj")) {
                switch PBXProjectReader.parse(bytes) {
                case .success(let s): pbx = s
                case .failure(let e): context.pbxprojProblem = e
                }
            }
        }

        // 3. Info.plist
        context.infoPlist = locateInfoPlist(dir: dir, pbx: pbx, xcodeprojName: xcodeprojName, files: files)
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

        if let d = config.devices {
            context.devices = d; context.sources["devices"] = .config
        } else if let d = pbx.deviceFamily {
            context.devices = d; context.sources["devices"] = .pbxproj
        } else if let d = plistDevices {
            context.devices = d; context.sources["devices"] = .infoPlist
        }

        if let t = config.deploymentTarget {
            context.deploymentTarget = t; context.sources["deployment-target"] = .config
        } else if let t = pbx.deploymentTarget {
            context.deploymentTarget = t; context.sources["deployment-target"] = .pbxproj
        } else if let t = plistTarget {
            context.deploymentTarget = t; context.sources["deployment-target"] = .infoPlist
        }

        if let d = config.distribution { context.distribution = d; context.sources["distribution"] = .config }

        if let n = config.appIcon {
            context.appIconName = n; context.sources["app-icon"] = .config
        } else if let n = pbx.appIconName {
            context.appIconName = n; context.sources["app-icon"] = .pbxproj
        } else if let n = plist?["CFBundleIconName"]?.string, !n.isEmpty {
            context.appIconName = n; context.sources["app-icon"] = .infoPlist
        }

        if let n = config.launchImage {
            context.launchImageName = n; context.sources["launch-image"] = .config
        } else if let n = pbx.launchImageName {
            context.launchImageName = n; context.sources["launch-image"] = .pbxproj
        }

        context.infoPlistGenerated = pbx.generatesInfoPlist
        context.ignore = config.ignore
        context.disabledRules = config.disabled
        context.severityOverrides = config.severity
        return context
    }

    static func locateInfoPlist(dir: String, pbx: PBXBuildSettings, xcodeprojName: String?, files: some ProjectFileAccess) -> String? {
        var candidates: [String] = []
        if let file = pbx.infoPlistFile {
            let cleaned = file.replacingOccurrences(of: "$(SRCROOT)/", with: "").replacingOccurrences(of: "${SRCROOT}/", with: "")
            if !cleaned.contains("$"), let p = RelativePath.normalize(RelativePath.join(dir, cleaned)) { candidates.append(p) }
        }
        candidates.append(RelativePath.join(dir, "Info.plist"))
        if let name = xcodeprojName {
            candidates.append(RelativePath.join(dir, "\(name)/Info.plist"))
            candidates.append(RelativePath.join(dir, "\(name)/\(name)-Info.plist"))
        }
        for c in candidates {
            if case .success = files.read(c) { return c }
        }
        // A single *-Info.plist beside the project.
        if case .success(let entries) = files.list(dir) {
            let named = entries.filter { !$0.isDirectory && $0.name.hasSuffix("-Info.plist") }
            if named.count == 1 { return RelativePath.join(dir, named[0].name) }
        }
        return nil
    }
}
