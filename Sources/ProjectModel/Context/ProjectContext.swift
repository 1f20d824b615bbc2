import Findings
import Foundation
import SystemCalls

/// Where one piece of the context came from, reported with the results.
public enum ContextSource: String, Sendable, Hashable, Codable {
    case config = ".reswatch.yaml"
    /// `reswatch check --config FILE`, laid over the project's own configuration.
    case commandLine = "--config"
    case pbxproj = "project.pbxproj"
    case infoPlist = "Info.plist"
    case defaults = "default"
}

/// Everything a rule may depend on about the project a file belongs to (rules.md, "Project context").
public struct ProjectContext: Sendable, Hashable {
    /// Root-relative project directory ("" for the root itself).
    public var directory: String
    /// One of the sets `Device.shared` hands out (each project's own was a heap block).
    public var devices = Device.shared(Set(Device.allCases))
    public var deploymentTarget = OSVersion(12, 0)
    public var distribution = Distribution.appStore
    public var appIconName: String?
    public var launchImageName: String?
    /// Root-relative path of the Info.plist in use, if one was found.
    public var infoPlist: String? { didSet { ownership = OwnershipBox() } }
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
    public var otherTargets: [OtherTarget] = [] { didSet { ownership = OwnershipBox() } }
    /// Every iOS app target of the project (the primary one first); each gets its own context.
    public var appTargets: [String] = []
    /// The project's App Clips (when it has a full app); each gets its own context, after the apps'.
    public var appClips: [String] = []
    /// The context is an App Clip's (`targetName` is the clip; the full app embeds it).
    public var isAppClip = false
    /// Paths the app target owns: its bundled resources and its Info.plist's folder.
    public var ownedPaths: [String] = [] { didSet { ownership = OwnershipBox() } }
    /// Who holds which path, from the three fields above (`OwnershipIndex`).
    private var ownership = OwnershipBox()
    var ownershipIndex: OwnershipIndex { ownership.index { OwnershipIndex(context: self) } }
    /// The Xcode project lists every target's resources (build phases, synchronized folders):
    /// what none of them bundles ships in no product.
    public var resourcesKnown = false
    /// Extension Info.plists no target names (`INFOPLIST_FILE`) while every target names its own:
    /// left over, not judged.
    public var orphanInfoPlists: [String] = []
    /// The Icon Composer bundles (`.icon`) the app target compiles; nil when no target was read
    /// (then any `.icon` of the project may be the app's).
    public var iconBundles: IconBundleMembership?
    /// The app target's build settings in the configuration that ships (nil: no target read).
    public var appSettings: ResolvedBuildSettings? {
        didSet { generatedInfoPlist = appSettings.map { GeneratedInfoPlist.content($0, isApplication: true, platform: .iOS) } ?? [:] }
    }
    /// What the app target compiles (root-relative files and folders; empty when not known).
    public var appSources: [String] = []
    /// The tree's Swift packages the app target links (root-relative folders with a Package.swift).
    public var appLocalPackages: [String] = []

    /// What Xcode generates into the app's Info.plist from build settings (empty when it
    /// generates none, or no target was read): `GeneratedInfoPlist`. Kept with the settings it
    /// comes from (every rule reading the app's Info.plist asks for it).
    public private(set) var generatedInfoPlist: [String: PlistValue] = [:]
    /// Set when the project's targets were read and none is an iOS app (only macOS apps,
    /// frameworks, tests …): why nothing of it is judged as an app's, outside the targets reswatch
    /// checks on other platforms (watch app icons, tvOS brand assets).
    public var noAppReason: String?
    /// A `.reswatch.yaml` or a project description (Xcode, XcodeGen, Tuist) makes the folder a
    /// project; without one (and without an app Info.plist) it is only a folder of files.
    public var isMarked = false
    /// What the context was read from, or could not be (shown with it).
    public var notes: [String] = []
    public var ignore: [String] = []
    public var disabledRules: Set<String> = []
    public var severityOverrides: [String: SeverityOverride] = [:]
    public var sources: ContextSources = [
        "devices": .defaults, "deployment-target": .defaults, "distribution": .defaults,
    ]
    /// Problems found while reading the context's own files (the engine reports each one).
    public var problems: [ContextProblem] = []
    /// Lines in `.reswatch.yaml` of each rule id and glob it names (for problems found later).
    public var ruleIdLines: [String: Int] = [:]
    public var ignoreLines: [String: Int] = [:]

    public init(directory: String) { self.directory = directory }

    /// For an app icon set name: nil when the configuration that ships builds with it (or that
    /// cannot be known); otherwise which configurations build with it, or that none does.
    public func unshippedIconSetReason(_ name: String) -> String? {
        guard targetName != nil, !iconNamesByConfiguration.isEmpty, !buildSettingsIncomplete, !includesAllAppIcons,
            !alternateAppIconNames.contains(name), appIconName != name
        else { return nil }
        let users = iconNamesByConfiguration.filter { $0.value.contains(name) }.keys.sorted()
        if !users.isEmpty {
            // Built only by configurations that do not ship (Debug, Enterprise, Beta): App Store
            // Connect never sees it (issue 58, cause 7).
            guard let shipping = configuration, !users.contains(shipping), let shipped = iconNamesByConfiguration[shipping] else {
                return nil
            }
            let why = configurationReason.map { ", \($0)" } ?? ""
            return "only \(users.joined(separator: ", ")) of \(targetName!) build\(users.count == 1 ? "s" : "") with it; "
                + "\(shipping) (the configuration that ships\(why)) builds with \(shipped.first ?? "none")"
        }
        let used = iconNamesByConfiguration.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.first ?? "none")" }
        return "no configuration of \(targetName!) builds with it (\(used.joined(separator: ", ")))"
    }

    /// Why the devices are what they are, for findings that depend on them: "TARGETED_DEVICE_FAMILY
    /// = 1,2 in App.xcconfig:3", "devices in .reswatch.yaml", or that reswatch assumed them.
    public var devicesBecause: String {
        let family = Device.allCases.filter { devices.contains($0) }.map { $0 == .iphone ? "1" : "2" }.joined(separator: ",")
        switch sources["devices"] {
        case .config, .commandLine:
            return "devices: [\(Device.allCases.filter { devices.contains($0) }.map(\.rawValue).joined(separator: ", "))] in "
                + (sources["devices"] == .config ? ".reswatch.yaml" : "the --config file")
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
        case .commandLine: return "deployment-target in the --config file"
        case .pbxproj: return "IPHONEOS_DEPLOYMENT_TARGET" + (origins["deployment-target"].map { " in \($0)" } ?? "")
        case .infoPlist: return "MinimumOSVersion in Info.plist"
        default: return "no setting names it, so reswatch assumes \(deploymentTarget)"
        }
    }

    /// Why nothing of `path` is judged, or nil when it is: a target reswatch does not check owns
    /// it (a macOS app, a test bundle …: `OtherTarget.leftOutReason`), or the project builds no iOS
    /// app and no target reswatch checks owns it (`noAppReason`). Rules never see such a path: no
    /// iOS rule judges a Mac app's Info.plist, nor a test's snapshot images as the app's icons.
    public func leftOutReason(for path: String) -> String? {
        if let catalog = unbundledCatalog(containing: path) { return "\(catalog) is bundled by no target of the project" }
        if isUnbundledImage(path) { return "\(path) is in no target's Copy Bundle Resources phase" }
        if orphanInfoPlists.contains(path) { return "\(path) is no target's Info.plist" }
        if otherTargets.isEmpty { return noAppReason }
        if let owner = otherTarget(containing: path) { return owner.leftOutReason }
        return noAppReason
    }

    /// An image (`.png`, `.jpg`) outside the asset catalogs that no target of the project
    /// bundles, when the project lists every target's resources: a launch image or an icon
    /// dropped from the project, fastlane's artwork, a README's picture (issue 58, cause 5).
    public func isUnbundledImage(_ path: String) -> Bool {
        guard resourcesKnown, !path.contains(".xcassets/") else { return false }
        let lower = path.lowercased()
        guard lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") else { return false }
        // Names compared as the Mac that builds compares them (APFS is case-insensitive): DOOM's
        // project bundles "Default.png", which is default.png on disk.
        return !ownershipIndex.isBundled(path, folded: true)
    }

    /// The asset catalog (`X.xcassets`) holding `path` when the project lists every target's
    /// resources and none bundles it, neither as a file nor inside a folder or synchronized group:
    /// a leftover catalog (HomeAssistant's WatchApp/Assets.xcassets beside the watch app's
    /// Sources/WatchApp) ships in no product.
    public func unbundledCatalog(containing path: String) -> String? {
        guard resourcesKnown, let range = path.range(of: ".xcassets") else { return nil }
        let end = range.upperBound
        guard end == path.endIndex || path[end] == "/" else { return nil }
        let catalog = String(path[..<end])
        return ownershipIndex.isBundled(catalog, folded: false) ? nil : catalog
    }

    /// The other target whose folder holds `path` (most specific folder), unless the path is in
    /// the app's own folder more specifically (its Info.plist's folder).
    public func otherTarget(containing path: String) -> OtherTarget? {
        // The most specific owned path decides: the app's own (resources, Info.plist folder) or
        // another target's (its resources or folder).
        ownershipIndex.otherTarget(containing: path).map { otherTargets[$0] }
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
    public var settings: ResolvedBuildSettings? {
        didSet {
            generatedInfoPlist =
                settings.map {
                    GeneratedInfoPlist.content(
                        $0, isApplication: productType.hasPrefix("com.apple.product-type.application"), platform: platform)
                } ?? [:]
        }
    }
    public var infoPlistFile: String?
    /// What it compiles (root-relative files and folders).
    public var sources: [String] = []
    /// The tree's Swift packages it links.
    public var localPackages: [String] = []
    /// The target that embeds its product ("" when none does; nil when the project does not say).
    public var embedder: String?

    /// What Xcode generates into its Info.plist from its build settings (`GeneratedInfoPlist`),
    /// kept with them.
    public private(set) var generatedInfoPlist: [String: PlistValue] = [:]
    public var settingsIncomplete = false
    /// The Icon Composer bundles it compiles.
    public var iconBundles: IconBundleMembership?
    /// Not judged as an iOS app (another platform, or a second app): said once as
    /// project.not-checked, with what of it is judged (`judgedPart`).
    public let notChecked: Bool

    /// Why nothing in the target's folders is judged, or nil: a target of a platform reswatch
    /// does not check at all (macOS, visionOS, a watch extension …; a watch app's icons and a tvOS
    /// app's brand assets are checked), or a test bundle (its images are fixtures and snapshots,
    /// never the app's resources).
    public var leftOutReason: String? {
        if productType.hasPrefix("com.apple.product-type.bundle.unit-test")
            || productType.hasPrefix("com.apple.product-type.bundle.ui-testing")
        {
            return "\(name) (\(kind)) is a test bundle, not part of the app"
        }
        guard notChecked else { return nil }
        if productType == ResolvedTarget.appClipType { return "\(name) (App Clip) is not checked" }
        let isApp = productType == "com.apple.product-type.application" || productType.contains("watchapp2")
        switch platform {
        case .iOS, .unknown: return nil
        case .watchOS where isApp && !productType.hasSuffix("container"): return nil
        case .tvOS where isApp: return nil
        default: return "\(name) (\(kind)) is not checked"
        }
    }

    /// What reswatch judges of a target it does not judge as an iOS app (docs/rules.md, "Platforms").
    public var judgedPart: String {
        let isApp = productType == "com.apple.product-type.application" || productType.contains("watchapp2")
        if productType == ResolvedTarget.appClipType {
            return
                "not checked: the project has no iOS app to embed it, and an App Clip ships only inside its full app"
        }
        if productType.isEmpty {
            return "not read (the project's description makes it in a way reswatch does not evaluate): nothing of it is judged"
        }
        switch platform {
        case .watchOS where isApp && !productType.hasSuffix("container"):
            return
                "only its app icon set (icon.watch-marketing-missing, icon.watch-alpha, icon.size-mismatch), its Info.plist's iOS keys and companion (watch.*), bundle identifier (bundle.id-prefix) and entitlements (entitlements.*) are checked; its other resources are not"
        case .tvOS where isApp:
            return
                "only its App Icon & Top Shelf brand assets are checked (tv.appstore-icon, tv.size-mismatch); its Info.plist and other resources are not"
        case .watchOS where productType.contains("extension"):
            return
                "only its bundle identifier (bundle.id-prefix) and entitlements (entitlements.*) are checked; its Info.plist and resources are not"
        default:
            return "not checked; reswatch validates iOS apps and their extensions, watch app icons and tvOS brand assets"
        }
    }
}

/// What embeds a target's product (`ProjectContext.embedding(of:)`).
public enum Embedding: Sendable, Equatable {
    /// The app of the context.
    case app
    /// Another target of the project (the iOS app a watch app is in, the watch app an extension is in …).
    case target(OtherTarget)
    /// No target copies it into its product: it ships in none.
    case nowhere
    /// The project's description does not say (a Tuist manifest), or names a target not read.
    case unknown
}

extension ProjectContext {
    /// What embeds `target`'s product, from the targets' Copy Files phases (Embed App Extensions,
    /// Embed Watch Content, Embed App Clips) or XcodeGen's `embed:`.
    public func embedding(of target: OtherTarget) -> Embedding {
        guard let name = target.embedder else { return .unknown }
        if name.isEmpty { return .nowhere }
        if name == targetName { return .app }
        return otherTargets.first { $0.name == name }.map { .target($0) } ?? .unknown
    }

    /// The application whose `.ipa` ships `target` at the end of its embedding chain (a watch
    /// extension's watch app's iOS app): `.app`, `.target` of another app, `.nowhere` or `.unknown`.
    public func shippingApp(of target: OtherTarget) -> Embedding {
        var current = target
        for _ in 0..<8 {
            switch embedding(of: current) {
            case .target(let parent):
                if parent.productType == "com.apple.product-type.application" { return .target(parent) }
                current = parent
            case let other: return other
            }
        }
        return .unknown
    }
}
