/// What the context takes from an Xcode project: the build settings of its iOS application target
/// in the configuration that ships (rules.md, context source 2), each with where it came from,
/// and the project's other targets (extensions, watch apps, tvOS …), which are not the app.
public struct PBXBuildSettings: Sendable, Hashable {
    public var deploymentTarget: OSVersion?
    public var deviceFamily: Set<Device>?
    public var appIconName: String?
    public var launchImageName: String?
    public var infoPlistFile: String?
    public var targetName: String?
    /// The configuration that ships, and why it is that one.
    public var configuration: String?
    public var configurationReason: String?
    /// GENERATE_INFOPLIST_FILE = YES: Xcode adds INFOPLIST_KEY_* settings to the Info.plist.
    public var generatesInfoPlist = false
    /// `ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES`, and `…_INCLUDE_ALL_APPICON_ASSETS = YES`.
    public var alternateAppIconNames: [String] = []
    public var includesAllAppIcons = false
    /// Every iOS app target of the project, the primary one first.
    public var appTargets: [String] = []
    /// The App Clips of a project that has a full app: each is judged as an app of its own.
    public var appClips: [String] = []
    /// What the app target bundles (root-relative files and folders).
    public var resources: [String] = []
    /// What the app target compiles (root-relative files and folders).
    public var sources: [String] = []
    /// The tree's Swift packages the app target links (root-relative folders).
    public var localPackages: [String] = []
    /// The Icon Composer bundles the app target compiles (nil: no app target was read).
    public var icons: IconBundleMembership?
    /// The app icon sets each configuration of the app target builds with.
    public var iconNamesByConfiguration: [String: [String]] = [:]
    /// A base .xcconfig that could not be read: settings it may set are unknown.
    public var mayUseXcconfig = false
    /// Where each value reswatch uses came from (setting name → "App.xcconfig:3", "Xcode default" …).
    public var origins: [String: SettingOrigin] = [:]
    /// Settings whose value cannot be known (an .xcconfig that may set them was not read), with why.
    public var unknown: [String: String] = [:]
    /// Every native target, resolved (the app among them).
    public var targets: [ResolvedTarget] = []
    /// Problems met in xcconfig files (reported with the context).
    public var problems: [XcconfigProblem] = []

    public init() {}
}

public enum PBXProjectReader {
    /// Settings of the project's iOS application target (the one named like the project, else one
    /// a shared scheme archives, else the first), or of no target when the project has none.
    /// `app`: the name of the iOS app target to take the settings of (nil: the project's primary one).
    public static func settings(_ project: XcodeProject, files: some ProjectFileAccess, app chosen: String? = nil) -> PBXBuildSettings {
        settings(project, targets: TargetResolver.resolve(project, files: files), app: chosen)
    }

    /// The same, from the project's targets already resolved (`TargetResolver.resolve`).
    static func settings(_ project: XcodeProject, targets: [ResolvedTarget], app chosen: String?) -> PBXBuildSettings {
        var result = PBXBuildSettings()
        result.targets = targets
        // Known iOS apps before those whose platform could not be told.
        let apps =
            targets.filter { $0.isIOSApplication && $0.platform == .iOS }
            + targets.filter { $0.isIOSApplication && $0.platform == .unknown }
        // Each known iOS app gets its own context (the primary one may be of unknown platform).
        result.appTargets = apps.filter { $0.platform == .iOS }.map(\.name)
        // An App Clip is an iOS app of its own that a full app embeds: judged in its own context
        // (when asked for by name), never as the project's primary app.
        let clips = targets.filter { $0.productType == ResolvedTarget.appClipType && [.iOS, .unknown].contains($0.platform) }
        if !apps.isEmpty { result.appClips = clips.map(\.name) }
        let app =
            (chosen.flatMap { name in apps.first { $0.name == name } ?? (apps.isEmpty ? nil : clips.first { $0.name == name }) })
            ?? apps.first { $0.name == project.name && $0.platform == .iOS } ?? apps.first {
                $0.configurationReason.hasPrefix("the shared scheme")
            }
            ?? apps.first
        guard let app else { return result }
        let s = app.settings
        result.targetName = app.name
        result.resources = app.resources
        result.sources = app.sources
        result.localPackages = app.localPackages
        result.icons = app.icons
        if app.productType != ResolvedTarget.appClipType {
            result.appTargets.removeAll { $0 == app.name }
            result.appTargets.insert(app.name, at: 0)
        }
        result.iconNamesByConfiguration = app.iconNamesByConfiguration
        result.configuration = app.configuration
        result.configurationReason = app.configurationReason
        result.problems = app.problems
        // A base configuration that was not read may set anything (CocoaPods' support files are
        // left out by PodsFiles: they set only search paths and linker flags).
        let unread = app.problems.filter { $0.message.hasPrefix("base configuration") || $0.message.contains("#include") }.map(\.file)
        result.mayUseXcconfig = !unread.isEmpty
        func take(_ key: String) -> String? {
            guard let value = s.string(key), !value.isEmpty, let origin = s.origin(key) else { return nil }
            if origin == .xcodeDefault && result.mayUseXcconfig {
                // Unset where reswatch could read, but an unread .xcconfig may set it: unknown.
                result.unknown[key] = "not read: \(unread.joined(separator: ", "))"
                return nil
            }
            result.origins[key] = origin
            return value
        }
        result.deploymentTarget = take("IPHONEOS_DEPLOYMENT_TARGET").flatMap(OSVersion.init)
        if let family = take("TARGETED_DEVICE_FAMILY") {
            var devices = Set<Device>()
            for part in family.split(separator: ",") {
                switch part.trimmingCharacters(in: .whitespaces) {
                case "1": devices.insert(.iphone)
                case "2": devices.insert(.ipad)
                default: break
                }
            }
            if !devices.isEmpty { result.deviceFamily = devices }
        }
        result.appIconName = take("ASSETCATALOG_COMPILER_APPICON_NAME")
        result.launchImageName = take("ASSETCATALOG_COMPILER_LAUNCHIMAGE_NAME")
        result.infoPlistFile = take("INFOPLIST_FILE")
        result.generatesInfoPlist = take("GENERATE_INFOPLIST_FILE").map(isYes) ?? false
        result.alternateAppIconNames = take("ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES")?.split(separator: " ").map(String.init) ?? []
        result.includesAllAppIcons = take("ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS").map(isYes) ?? false
        return result
    }

    static func isYes(_ s: String) -> Bool { ["YES", "yes", "true", "TRUE", "1"].contains(s) }
}
