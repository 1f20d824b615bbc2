import SystemCalls

/// A native target of an Xcode project with the build settings of the configuration that ships,
/// resolved as xcodebuild does.
public struct ResolvedTarget: Sendable, Hashable {
    public enum Platform: String, Sendable, Hashable {
        case iOS, tvOS, watchOS, macOS, visionOS, unknown
    }

    public let id: String
    public let name: String
    public let productType: String
    /// The configuration an archive uses, and why that one.
    public let configuration: String
    public let configurationReason: String
    public let settings: ResolvedBuildSettings
    public let platform: Platform
    /// Problems met reading the target's xcconfig files (missing includes, unreadable lines).
    public let problems: [XcconfigProblem]
    /// The app icon set names (primary and alternates) each configuration builds with.
    public var iconNamesByConfiguration: [String: [String]] = [:]
    /// What the target bundles (root-relative files and folders), from the project.
    public var resources: [String] = []
    /// The Icon Composer bundles the target compiles.
    public var icons: IconBundleMembership
    /// What the target compiles (files and folders, root-relative).
    public var sources: [String] = []
    /// An aggregate target (scripts, other targets): no product of its own.
    public var isAggregate = false
    /// The tree's Swift packages it links (root-relative folders).
    public var localPackages: [String] = []
    /// The target whose product embeds this one's ("" when none does), or nil when the project's
    /// description does not say (a Tuist manifest).
    public var embedder: String?

    public var isApplication: Bool { productType == "com.apple.product-type.application" }
    /// An App Clip: an iOS app the full app embeds, not judged yet (said as project.not-checked).
    public static let appClipType = "com.apple.product-type.application.on-demand-install-capable"
    /// An iOS app (a target whose platform cannot be told is taken for one: iOS is Xcode's
    /// default for the projects reswatch is pointed at).
    public var isIOSApplication: Bool { isApplication && (platform == .iOS || platform == .unknown) }

    /// "iOS application", "app extension", "tvOS application", "unit-test bundle" …
    public var kindDescription: String {
        let kinds: [String: String] = [
            "com.apple.product-type.application": "application",
            "com.apple.product-type.app-extension": "app extension",
            "com.apple.product-type.extensionkit-extension": "app extension",
            "com.apple.product-type.application.on-demand-install-capable": "App Clip",
            "com.apple.product-type.application.watchapp2": "watch app",
            "com.apple.product-type.application.watchapp2-container": "watch app container",
            "com.apple.product-type.watchkit2-extension": "WatchKit extension",
            "com.apple.product-type.bundle.unit-test": "unit-test bundle",
            "com.apple.product-type.bundle.ui-testing": "UI-test bundle",
            "com.apple.product-type.framework": "framework",
            "com.apple.product-type.library.static": "static library",
            "com.apple.product-type.bundle": "bundle",
            "com.apple.product-type.tool": "command-line tool",
        ]
        let kind = kinds[productType] ?? (productType.isEmpty ? (isAggregate ? "aggregate target" : "product type unknown") : productType)
        switch platform {
        case .unknown: return kind + (isApplication || productType.contains("extension") ? ", platform unknown" : "")
        case .iOS: return kind.hasSuffix("application") ? "iOS \(kind)" : kind
        default: return "\(platform.rawValue) \(kind)"
        }
    }
}

public enum TargetResolver {
    /// Every native target of the project, resolved for the configuration it ships with.
    public static func resolve(_ project: XcodeProject, files: some ProjectFileAccess) -> [ResolvedTarget] {
        let schemes = SchemeReader.archiveConfigurations(project, files: files)
        // Known when some target copies another's product (a project without any such phase is a
        // hand-made or partial one: then which app embeds what is not concluded).
        let embedding = project.targets.contains { !($0.embeds ?? []).isEmpty }
        return project.targets.map { target in
            let (configName, reason) = shippingConfiguration(target, project: project, schemes: schemes)
            var (settings, problems) = Self.settings(of: target, in: project, configuration: configName, files: files)
            // A target of another platform builds with its own SDK: its `[sdk=watchos*]` settings
            // (EXCLUDED_ARCHS, the icon set) are the ones that ship.
            let platform = platform(of: target, settings: settings)
            if let sdk = Self.sdkNames[platform] {
                (settings, problems) = Self.settings(of: target, in: project, configuration: configName, files: files, sdk: sdk)
            }
            // The app icon sets every configuration uses (an archive ships one; Debug, Beta … others).
            var iconNames: [String: [String]] = [:]
            for configuration in target.configurations {
                let s =
                    configuration.name == configName
                    ? settings
                    : Self.settings(
                        of: target, in: project, configuration: configuration.name, files: files, sdk: Self.sdkNames[platform] ?? "iphoneos"
                    ).0
                var names = s.string("ASSETCATALOG_COMPILER_APPICON_NAME").map { [$0] } ?? []
                names += s.string("ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES")?.split(separator: " ").map(String.init) ?? []
                iconNames[configuration.name] = names.filter { !$0.isEmpty }
            }
            return ResolvedTarget(
                id: target.id, name: target.name, productType: target.productType, configuration: configName,
                configurationReason: reason, settings: settings, platform: platform, problems: problems,
                iconNamesByConfiguration: iconNames, resources: target.resources, icons: target.icons, sources: target.sources,
                isAggregate: target.isAggregate, localPackages: target.localPackages,
                embedder: embedding ? (project.embedder(of: target.name)?.name ?? "") : nil)
        }
    }

    /// The target's settings in one configuration, and the problems met reading its xcconfigs.
    /// The SDK a target of another platform than iOS builds with, for its conditional settings.
    static let sdkNames: [ResolvedTarget.Platform: String] = [.watchOS: "watchos", .tvOS: "appletvos", .visionOS: "xros", .macOS: "macosx"]

    static func settings(
        of target: XcodeProject.Target, in project: XcodeProject, configuration configName: String, files: some ProjectFileAccess,
        sdk: String = "iphoneos"
    ) -> (ResolvedBuildSettings, [XcconfigProblem]) {
        do {
            var levels: [[SettingAssignment]] = []
            var problems: [XcconfigProblem] = []
            func add(_ configuration: XcodeProject.Configuration?) {
                guard let configuration else {
                    levels.append([])
                    levels.append([])
                    return
                }
                if let base = configuration.baseConfiguration {
                    // CocoaPods' support files (Pods/ is not part of the checked tree) set only
                    // search paths and linker flags: nothing reswatch reads, nothing unknown.
                    if Self.isCocoaPodsSupportFile(base) {
                        levels.append([])
                        levels.append(configuration.settings)
                        return
                    }
                    let read = XcconfigReader.read(base, files: files)
                    if case .failure = files.read(base) {
                        problems.append(
                            XcconfigProblem(
                                file: base, line: 0,
                                message:
                                    "base configuration \(base) (\(configuration.name)) cannot be read; the build settings it may set are unknown"
                            ))
                    }
                    levels.append(read.assignments)
                    problems += read.problems
                } else {
                    if let missing = configuration.unresolvedBaseConfiguration {
                        problems.append(
                            XcconfigProblem(
                                file: RelativePath.join(project.path, "project.pbxproj"), line: 0,
                                message: "base configuration \(missing) is outside the checked tree (not read)"))
                    }
                    levels.append([])
                }
                levels.append(configuration.settings)
            }
            add(project.configuration(named: configName))
            add(target.configuration(named: configName))
            let builtins = [
                "TARGET_NAME": target.name, "PROJECT_NAME": project.name, "CONFIGURATION": configName, "SRCROOT": ".",
                "PROJECT_DIR": ".", "SOURCE_ROOT": ".", "PLATFORM_NAME": sdk, "EFFECTIVE_PLATFORM_NAME": "-\(sdk)",
            ]
            let settings = ResolvedBuildSettings(levels: levels, builtins: builtins, sdk: sdk, configuration: configName)
            var seen = Set<XcconfigProblem>()
            problems = problems.filter { seen.insert($0).inserted }
            return (settings, problems)
        }
    }

    static func isCocoaPodsSupportFile(_ path: String) -> Bool {
        path.contains("Pods/Target Support Files/") || path.hasPrefix("Pods/") || path.contains("/Pods/")
    }

    /// The shared scheme's ArchiveAction configuration, else Release, else the list's default.
    static func shippingConfiguration(
        _ target: XcodeProject.Target, project: XcodeProject, schemes: [String: (scheme: String, configuration: String)]
    ) -> (String, String) {
        if let s = schemes[target.id], target.configuration(named: s.configuration) != nil {
            return (s.configuration, "the shared scheme \(s.scheme) archives it so")
        }
        if target.configuration(named: "Release") != nil {
            // XcodeGen and Tuist write the schemes themselves: their archive action is Release.
            if project.path.hasSuffix(TuistReader.fileName) { return ("Release", "the scheme Tuist generates archives Release") }
            if !project.path.hasSuffix(".xcodeproj") { return ("Release", "the scheme XcodeGen generates archives Release") }
            return ("Release", schemes.isEmpty ? "no shared scheme" : "no shared scheme archives the target")
        }
        if let d = target.defaultConfigurationName, target.configuration(named: d) != nil {
            return (d, "its defaultConfigurationName; no Release configuration and no shared scheme")
        }
        return (target.configurations.first?.name ?? "Release", "the first configuration")
    }

    static func platform(of target: XcodeProject.Target, settings: ResolvedBuildSettings) -> ResolvedTarget.Platform {
        if target.productType.contains("watchapp") || target.productType.contains("watchkit") { return .watchOS }
        let sdk = (settings.string("SDKROOT") ?? "").lowercased()
        let table: [(String, ResolvedTarget.Platform)] = [
            ("iphoneos", .iOS), ("appletvos", .tvOS), ("watchos", .watchOS), ("macosx", .macOS), ("xros", .visionOS),
        ]
        if let hit = table.first(where: { sdk.contains($0.0) }) {
            // A multiplatform target may name macosx as SDKROOT and list iphoneos as supported.
            if hit.1 != .iOS, (settings.string("SUPPORTED_PLATFORMS") ?? "").contains("iphoneos") { return .iOS }
            return hit.1
        }
        let supported = settings.string("SUPPORTED_PLATFORMS") ?? ""
        if let hit = table.first(where: { supported.contains($0.0) }) { return hit.1 }
        // No SDKROOT (it is in an .xcconfig that was not read): the deployment-target settings
        // and the target's name say which platform it is for.
        if settings.string("IPHONEOS_DEPLOYMENT_TARGET") != nil { return .iOS }
        for (key, platform) in [
            ("MACOSX_DEPLOYMENT_TARGET", ResolvedTarget.Platform.macOS), ("TVOS_DEPLOYMENT_TARGET", .tvOS),
            ("WATCHOS_DEPLOYMENT_TARGET", .watchOS), ("XROS_DEPLOYMENT_TARGET", .visionOS),
        ] where settings.string(key) != nil {
            return platform
        }
        let words = target.name.lowercased()
        if words.contains("ios") || words.contains("iphone") { return .iOS }
        if words.contains("tvos") { return .tvOS }
        if words.contains("watch") { return .watchOS }
        if words.contains("macos") || words.contains("mac") { return .macOS }
        return .unknown
    }
}

/// Shared schemes (`*.xcodeproj/xcshareddata/xcschemes/*.xcscheme`): which configuration each
/// target is archived with.
enum SchemeReader {
    /// Target id → the archiving scheme and its configuration. When several schemes archive a
    /// target, the one named after the target wins, then one whose first entry it is (its own
    /// scheme, not an extension's that builds it along), else the first by name.
    static func archiveConfigurations(_ project: XcodeProject, files: some ProjectFileAccess) -> [String: (
        scheme: String, configuration: String
    )] {
        let dir = RelativePath.join(project.path, "xcshareddata/xcschemes")
        guard case .success(let entries) = files.list(dir) else { return [:] }
        var result: [String: (scheme: String, configuration: String)] = [:]
        var ranks: [String: Int] = [:]
        let names = Dictionary(project.targets.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        for entry in entries.sorted(by: { $0.name < $1.name }) where entry.name.hasSuffix(".xcscheme") {
            guard case .success(let bytes) = files.read(RelativePath.join(dir, entry.name)) else { continue }
            let xml = String(decoding: bytes, as: UTF8.self)
            let scheme = String(entry.name.dropLast(".xcscheme".count))
            guard let archive = element("ArchiveAction", in: xml), let config = attribute("buildConfiguration", in: archive) else {
                continue
            }
            // A scheme archives its first entry as its own product (an extension's scheme lists
            // the extension, then its host app): the app's own scheme wins over one that only
            // builds it along.
            for (i, id) in archivedTargets(in: xml).enumerated() {
                let rank = scheme == names[id] ? 0 : i == 0 ? 1 : 2
                if let existing = ranks[id], existing <= rank { continue }
                ranks[id] = rank
                result[id] = (scheme, config)
            }
        }
        return result
    }

    /// BlueprintIdentifiers of the build entries that build for archiving.
    static func archivedTargets(in xml: String) -> [String] {
        var ids: [String] = []
        var rest = Substring(xml)
        while let start = LiteralText.range(of: "<BuildActionEntry", in: rest) {
            let after = rest[start.upperBound...]
            let end = LiteralText.range(of: "</BuildActionEntry>", in: after)?.lowerBound ?? after.endIndex
            let entry = String(after[..<end])
            let archiving = attribute("buildForArchiving", in: entry).map { $0 == "YES" } ?? true
            if archiving, let reference = element("BuildableReference", in: entry), let id = attribute("BlueprintIdentifier", in: reference)
            {
                ids.append(id)
            }
            rest = after[end...]
        }
        return ids
    }

    /// The opening tag `<name …>` (attributes only).
    static func element(_ name: String, in xml: String) -> String? {
        guard let start = LiteralText.range(of: "<" + name, in: Substring(xml)) else { return nil }
        let end = xml[start.upperBound...].firstIndex(of: ">") ?? xml.endIndex
        return String(xml[start.upperBound..<end])
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        var search = Substring(tag)
        while let r = LiteralText.range(of: name, in: search) {
            var i = r.upperBound
            while i < search.endIndex, search[i] == " " || search[i] == "\n" || search[i] == "\t" { i = search.index(after: i) }
            guard i < search.endIndex, search[i] == "=" else {
                search = search[r.upperBound...]
                continue
            }
            i = search.index(after: i)
            while i < search.endIndex, search[i] == " " || search[i] == "\n" || search[i] == "\t" { i = search.index(after: i) }
            guard i < search.endIndex, search[i] == "\"" else { return nil }
            let valueStart = search.index(after: i)
            guard let valueEnd = search[valueStart...].firstIndex(of: "\"") else { return nil }
            return String(search[valueStart..<valueEnd])
        }
        return nil
    }
}
