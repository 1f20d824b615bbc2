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

    public var isIPhoneOnly: Bool { devices == [.iphone] }
    public var isIPadOnly: Bool { devices == [.ipad] }
}

/// Resolves a project's context from `.reswatch.yaml`, then `project.pbxproj`, then Info.plist, then defaults.
public enum ContextResolver {
    /// `infoPlistCandidates`: every Info.plist / *-Info.plist of the project (root-relative), for
    /// finding the app's own when no setting names it.
    public static func resolve(projectDirectory dir: String, files: some ProjectFileAccess, infoPlistCandidates: [String] = [])
        -> ProjectContext
    {
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

        // 2. *.xcodeproj/project.pbxproj
        var pbx = PBXBuildSettings()
        var xcodeprojName: String?
        if case .success(let entries) = files.list(dir),
            let proj = entries.first(where: { $0.isDirectory && $0.name.hasSuffix(".xcodeproj") })
        {
            xcodeprojName = String(proj.name.dropLast(".xcodeproj".count))
            marked = true
            let path = RelativePath.join(dir, proj.name + "/project.pbxproj")
            switch files.read(path) {
            case .success(let bytes):
                switch PBXProjectReader.parse(bytes) {
                case .success(let s): pbx = s
                case .failure(let e):
                    context.problems.append(
                        ContextProblem(
                            .pbxprojInvalid, path: path, line: e.line,
                            message:
                                "project.pbxproj cannot be parsed (\(e)); its build settings are not used: the context comes from .reswatch.yaml, Info.plist and defaults instead"
                        ))
                }
            case .failure(let error):
                context.problems.append(
                    ContextProblem(
                        .pbxprojInvalid, path: path, line: nil,
                        message: "project.pbxproj cannot be read (\(error.reason)); its build settings are not used"))
            }
        }

        // 3. Info.plist
        let located = locateInfoPlist(
            dir: dir, pbx: pbx, config: config, xcodeprojName: xcodeprojName, candidates: infoPlistCandidates, marked: marked,
            files: files)
        context.infoPlist = located.path
        context.infoPlistReason = located.reason
        if let problem = located.problem { context.problems.append(problem) }
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
        context.buildSettingsIncomplete = pbx.mayUseXcconfig
        context.ignore = config.ignore
        context.disabledRules = config.disabled
        context.severityOverrides = config.severity
        context.ruleIdLines = config.ruleIdLines
        context.ignoreLines = config.ignoreLines
        return context
    }

    struct LocatedInfoPlist {
        var path: String?
        var reason: String
        var problem: ContextProblem?
    }

    /// The app's Info.plist: `info-plist:` in .reswatch.yaml, then `INFOPLIST_FILE`, then Xcode's
    /// template places beside the .xcodeproj, then the only app Info.plist of the project (not an
    /// extension, watch app, test bundle, framework or `.bundle`). Otherwise none, with the reason,
    /// and an info finding when the project is marked as one (`marked`) or the choice is ambiguous.
    static func locateInfoPlist(
        dir: String, pbx: PBXBuildSettings, config: ProjectConfig, xcodeprojName: String?, candidates: [String], marked: Bool,
        files: some ProjectFileAccess
    ) -> LocatedInfoPlist {
        func exists(_ p: String) -> Bool { if case .success = files.read(p) { true } else { false } }
        let configPath = RelativePath.join(dir, ".reswatch.yaml")
        if let named = config.infoPlist {
            if let p = RelativePath.normalize(RelativePath.join(dir, named)), exists(p) {
                return LocatedInfoPlist(path: p, reason: "info-plist in .reswatch.yaml")
            }
            return LocatedInfoPlist(
                path: nil, reason: "info-plist in .reswatch.yaml names no file",
                problem: ContextProblem(
                    .configInvalid, path: configPath, line: nil,
                    message: "info-plist: \(named) does not exist (relative to the project directory)"))
        }
        if let file = pbx.infoPlistFile {
            let cleaned = file.replacingOccurrences(of: "$(SRCROOT)/", with: "").replacingOccurrences(of: "${SRCROOT}/", with: "")
            if !cleaned.contains("$"), let p = RelativePath.normalize(RelativePath.join(dir, cleaned)), exists(p) {
                return LocatedInfoPlist(path: p, reason: "INFOPLIST_FILE in project.pbxproj")
            }
        }
        var conventional = [RelativePath.join(dir, "Info.plist")]
        if let name = xcodeprojName {
            conventional.append(RelativePath.join(dir, "\(name)/Info.plist"))
            conventional.append(RelativePath.join(dir, "\(name)/\(name)-Info.plist"))
        }
        for c in conventional where exists(c) {
            return LocatedInfoPlist(path: c, reason: xcodeprojName == nil ? "in the project directory" : "beside the .xcodeproj")
        }
        let apps = candidates.filter { isAppInfoPlist($0, files: files) }
        if apps.count == 1 {
            return LocatedInfoPlist(path: apps[0], reason: "the only app Info.plist in the project")
        }
        let key = "set info-plist: in \(configPath)\(pbx.infoPlistFile == nil ? " (the project has no INFOPLIST_FILE)" : "")"
        if apps.isEmpty {
            if pbx.generatesInfoPlist {
                return LocatedInfoPlist(path: nil, reason: "generated by Xcode (GENERATE_INFOPLIST_FILE), no file in the project")
            }
            // A folder that is no app project (no .reswatch.yaml, no .xcodeproj: an asset
            // folder) has no app Info.plist to miss; the context still says none was found.
            guard marked else { return LocatedInfoPlist(path: nil, reason: "none found (not an app project)") }
            return LocatedInfoPlist(
                path: nil, reason: "none found",
                problem: ContextProblem(
                    .infoPlistUnresolved, path: dir, line: nil,
                    message: "no app Info.plist found in the project: rules that read the app's Info.plist did not run; \(key)"))
        }
        return LocatedInfoPlist(
            path: nil, reason: "ambiguous: \(apps.count) app Info.plist files",
            problem: ContextProblem(
                .infoPlistUnresolved, path: dir, line: nil,
                message:
                    "\(apps.count) Info.plist files could be the app's (\(apps.joined(separator: ", "))): rules that read the app's Info.plist did not run; \(key)"
            ))
    }

    /// Not an extension's, a watch app's, a test bundle's, a framework's, a `.bundle`'s, nor a
    /// plist that only shares the name (GoogleService-Info.plist has no bundle keys).
    static func isAppInfoPlist(_ path: String, files: some ProjectFileAccess) -> Bool {
        let components = path.split(separator: "/")
        for c in components.dropLast() {
            for ext in [".bundle", ".appex", ".framework", ".xctest", ".app", ".lproj"] where c.hasSuffix(ext) { return false }
            if c.hasSuffix("Tests") || c.hasSuffix("UITests") { return false }
        }
        guard case .success(let bytes) = files.read(path), case .success(let (plist, _)) = PropertyListReader.parse(bytes),
            let dict = plist.dictionary
        else { return false }
        if !dict.keys.contains(where: { $0.hasPrefix("CFBundle") || $0.hasPrefix("UI") || $0.hasPrefix("LS") }) { return false }
        if dict["NSExtension"] != nil || dict["EXAppExtensionAttributes"] != nil { return false }
        if dict["WKWatchKitApp"]?.bool == true || dict["WKApplication"]?.bool == true || dict["WKCompanionAppBundleIdentifier"] != nil {
            return false
        }
        if let type = dict["CFBundlePackageType"]?.string, ["BNDL", "XPC!", "FMWK"].contains(type) { return false }
        return true
    }
}
