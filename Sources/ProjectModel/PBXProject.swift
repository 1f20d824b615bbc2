import Foundation

/// The build settings of an Xcode project that reswatch uses (rules.md, context source 2).
public struct PBXBuildSettings: Sendable, Hashable {
    public var deploymentTarget: OSVersion?
    public var deviceFamily: Set<Device>?
    public var appIconName: String?
    public var launchImageName: String?
    public var infoPlistFile: String?
    public var targetName: String?
    /// GENERATE_INFOPLIST_FILE = YES: Xcode adds INFOPLIST_KEY_* settings to the Info.plist.
    public var generatesInfoPlist = false
    /// The chosen configuration has a base .xcconfig: settings missing here may be set there.
    public var mayUseXcconfig = false
}

public enum PBXProjectReader {
    static let keys = [
        "IPHONEOS_DEPLOYMENT_TARGET", "TARGETED_DEVICE_FAMILY", "ASSETCATALOG_COMPILER_APPICON_NAME",
        "ASSETCATALOG_COMPILER_LAUNCHIMAGE_NAME", "INFOPLIST_FILE",
    ]

    /// Reads `project.pbxproj` (an OpenStep plist). The settings come from the first iOS application
    /// target's Release configuration (else its first), laid over the project-level configuration.
    public static func parse(_ bytes: [UInt8]) -> Result<PBXBuildSettings, PlistError> {
        switch PropertyListReader.parse(bytes) {
        case .failure(let e): return .failure(e)
        case .success(let (plist, _)):
            return .success(settings(from: plist))
        }
    }

    static func settings(from plist: PlistValue) -> PBXBuildSettings {
        let objects = plist["objects"]?.dictionary ?? [:]
        func configurations(_ listID: String?) -> [[String: PlistValue]] {
            guard let listID, let list = objects[listID],
                let ids = list["buildConfigurations"]?.array?.compactMap(\.string)
            else { return [] }
            return ids.compactMap { objects[$0]?.dictionary }
        }
        func preferredConfiguration(_ configs: [[String: PlistValue]]) -> [String: PlistValue]? {
            configs.first { $0["name"]?.string == "Release" } ?? configs.first
        }
        func preferred(_ configs: [[String: PlistValue]]) -> [String: PlistValue] {
            preferredConfiguration(configs)?["buildSettings"]?.dictionary ?? [:]
        }
        let rootID = plist["rootObject"]?.string
        let project = rootID.flatMap { objects[$0] }
        var merged = preferred(configurations(project?["buildConfigurationList"]?.string))

        let targetIDs = project?["targets"]?.array?.compactMap(\.string) ?? []
        let targets = targetIDs.compactMap { id in objects[id].map { (id, $0) } }
        let apps = targets.filter { $0.1["productType"]?.string == "com.apple.product-type.application" }
        // The iOS app target: not a watchOS/tvOS/macOS application (single-target watch apps are
        // "application" targets too).
        func isIOS(_ t: PlistValue) -> Bool {
            let s = preferred(configurations(t["buildConfigurationList"]?.string))
            let sdk = s["SDKROOT"]?.text ?? merged["SDKROOT"]?.text ?? ""
            if ["watchos", "appletvos", "macosx", "xros"].contains(where: sdk.contains) { return false }
            if let family = s["TARGETED_DEVICE_FAMILY"]?.text,
                !family.split(separator: ",").contains(where: { ["1", "2"].contains($0.trimmingCharacters(in: .whitespaces)) })
            {
                return false
            }
            return sdk.contains("iphoneos") || s["TARGETED_DEVICE_FAMILY"] != nil || s["IPHONEOS_DEPLOYMENT_TARGET"] != nil
        }
        let chosen =
            apps.first { isIOS($0.1) }
            ?? apps.first { t in
                let sdk = preferred(configurations(t.1["buildConfigurationList"]?.string))["SDKROOT"]?.text ?? merged["SDKROOT"]?.text ?? ""
                return !["watchos", "appletvos", "macosx", "xros"].contains(where: sdk.contains)
            }
        var result = PBXBuildSettings()
        var settingsFromXcconfig = false
        if let chosen {
            let configs = configurations(chosen.1["buildConfigurationList"]?.string)
            for (k, v) in preferred(configs) { merged[k] = v }
            result.targetName = chosen.1["name"]?.string
            settingsFromXcconfig = usesXcconfig(preferredConfiguration(configs))
        }
        let projectConfig = preferredConfiguration(configurations(project?["buildConfigurationList"]?.string))
        settingsFromXcconfig = settingsFromXcconfig || usesXcconfig(projectConfig)
        result.mayUseXcconfig = settingsFromXcconfig
        result.deploymentTarget = merged["IPHONEOS_DEPLOYMENT_TARGET"]?.text.flatMap(OSVersion.init)
        if let family = merged["TARGETED_DEVICE_FAMILY"]?.text {
            var devices = Set<Device>()
            for part in family.split(separator: ",") {
                switch part.trimmingCharacters(in: .whitespaces) {
                case "1": devices.insert(.iphone)
                case "2": devices.insert(.ipad)
                default: break
                }
            }
            if !devices.isEmpty { result.deviceFamily = devices }
        } else if chosen != nil && !settingsFromXcconfig {
            // Unset in the project and no .xcconfig could set it: Xcode's default is "1" (iPhone).
            result.deviceFamily = [.iphone]
        }
        result.generatesInfoPlist = merged["GENERATE_INFOPLIST_FILE"]?.bool ?? false
        result.appIconName = merged["ASSETCATALOG_COMPILER_APPICON_NAME"]?.text.flatMap(literal)
        result.launchImageName = merged["ASSETCATALOG_COMPILER_LAUNCHIMAGE_NAME"]?.text.flatMap(literal)
        result.infoPlistFile = merged["INFOPLIST_FILE"]?.text
        return result
    }

    /// baseConfigurationReference (or Xcode 16's …Anchor / …RelativePath): settings may come from an .xcconfig.
    static func usesXcconfig(_ configuration: [String: PlistValue]?) -> Bool {
        configuration?.keys.contains { $0.hasPrefix("baseConfigurationReference") } ?? false
    }

    /// Build-setting values with `$(VAR)` references cannot be resolved here; ignore them.
    static func literal(_ s: String) -> String? { s.contains("$(") || s.contains("${") || s.isEmpty ? nil : s }
}
