import Findings
import SystemCalls

/// How the resolved sources fill a context: the app target's build settings, then each setting
/// from the first source that has it (`.reswatch.yaml`, then `project.pbxproj`, then Info.plist,
/// then the defaults), with where it came from.
extension ProjectContext {
    /// The app target, its resources and the other targets of the project's build settings.
    mutating func adopt(_ pbx: PBXBuildSettings, projectDirectory dir: String, files: some ProjectFileAccess) {
        for problem in pbx.problems {
            problems.append(
                ContextProblem(.xcconfigProblem, path: problem.file, line: problem.line > 0 ? problem.line : nil, message: problem.message))
        }
        targetName = pbx.targetName
        appTargets = pbx.appTargets
        appClips = pbx.appClips
        isAppClip = pbx.targets.contains { $0.name == pbx.targetName && $0.productType == ResolvedTarget.appClipType }
        ownedPaths = pbx.resources
        iconBundles = pbx.icons
        appSettings = pbx.targets.first { $0.name == pbx.targetName }?.settings
        appSources = pbx.sources
        appLocalPackages = pbx.localPackages
        configuration = pbx.configuration
        configurationReason = pbx.configurationReason
        alternateAppIconNames = pbx.alternateAppIconNames
        includesAllAppIcons = pbx.includesAllAppIcons
        iconNamesByConfiguration = pbx.iconNamesByConfiguration
        otherTargets = ContextResolver.otherTargets(pbx, projectDirectory: dir, files: files)
        for target in otherTargets where target.notChecked {
            problems.append(
                ContextProblem(
                    .notChecked, path: target.directory ?? dir, line: nil, message: "\(target.name) (\(target.kind)): \(target.judgedPart)")
            )
        }
    }

    /// The precedence chain, once for every setting that has one.
    mutating func choose(_ config: ProjectConfig, _ pbx: PBXBuildSettings, _ plist: PlistValue?) {
        let plistDevices: Set<Device>? = plist?["UIDeviceFamily"].flatMap { value in
            let numbers: [String] = value.array?.compactMap(\.text) ?? value.text.map { [$0] } ?? []
            let set = Set(numbers.compactMap { $0 == "1" ? Device.iphone : ($0 == "2" ? Device.ipad : nil) })
            return set.isEmpty ? nil : set
        }
        if let d = first("devices", config.devices, pbx, "TARGETED_DEVICE_FAMILY", pbx.deviceFamily, plistDevices) {
            devices = Device.shared(d)
        }
        if let t = first(
            "deployment-target", config.deploymentTarget, pbx, "IPHONEOS_DEPLOYMENT_TARGET", pbx.deploymentTarget,
            plist?["MinimumOSVersion"]?.text.flatMap(OSVersion.init))
        {
            deploymentTarget = t
        }
        if let d = first("distribution", config.distribution, pbx, nil, nil, nil) { distribution = d }
        let plistIcon = plist?["CFBundleIconName"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        if let n = first("app-icon", config.appIcon, pbx, "ASSETCATALOG_COMPILER_APPICON_NAME", pbx.appIconName, plistIcon) {
            appIconName = n
        }
        if let n = first("launch-image", config.launchImage, pbx, "ASSETCATALOG_COMPILER_LAUNCHIMAGE_NAME", pbx.launchImageName, nil) {
            launchImageName = n
        }
    }

    /// One setting's value from the first source that has it, recording the source (and, for a
    /// build setting, where it is set; or that an unread .xcconfig leaves it unknown).
    mutating func first<T>(
        _ name: String, _ config: T?, _ pbx: PBXBuildSettings, _ buildSetting: String?, _ pbxproj: T?, _ infoPlist: T?
    ) -> T? {
        if let buildSetting, let why = pbx.unknown[buildSetting] { origins[name] = "\(buildSetting) unknown (\(why))" }
        if let value = config {
            sources[name] = .config
            return value
        }
        if let value = pbxproj, let buildSetting {
            sources[name] = .pbxproj
            origins[name] = pbx.origins[buildSetting]?.description
            return value
        }
        if let value = infoPlist {
            sources[name] = .infoPlist
            return value
        }
        return nil
    }

    /// The settings `check --config` gave are said to come from it.
    mutating func credit(_ overlay: ProjectConfig) {
        let given: [(String, Bool)] = [
            ("devices", overlay.devices != nil), ("deployment-target", overlay.deploymentTarget != nil),
            ("distribution", overlay.distribution != nil), ("app-icon", overlay.appIcon != nil),
            ("launch-image", overlay.launchImage != nil),
        ]
        for (name, isGiven) in given where isGiven { sources[name] = .commandLine }
    }

    /// What only `.reswatch.yaml` or the build settings say.
    mutating func adopt(_ config: ProjectConfig, _ pbx: PBXBuildSettings) {
        infoPlistGenerated = pbx.generatesInfoPlist
        buildSettingsIncomplete = pbx.mayUseXcconfig
        ignore = config.ignore
        disabledRules = config.disabled
        severityOverrides = config.severity
        ruleIdLines = config.ruleIdLines
        ignoreLines = config.ignoreLines
    }
}
