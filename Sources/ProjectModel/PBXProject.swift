import Foundation

/// The build settings of an Xcode project that reswatch uses (rules.md, context source 2).
public struct PBXBuildSettings: Sendable, Hashable {
    public var deploymentTarget: OSVersion?
    public var deviceFamily: Set<Device>?
    public var appIconName: String?
    public var launchImageName: String?
    public var infoPlistFile: String?
    public var targetName: String?
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
        func preferred(_ configs: [[String: PlistValue]]) -> [String: PlistValue] {
            let release = configs.first { $0["name"]?.string == "Release" }
            return (release ?? configs.first)?["buildSettings"]?.dictionary ?? [:]
        }
        let rootID = plist["rootObject"]?.string
        let project = rootID.flatMap { objects[$0] }
        var merged = preferred(configurations(project?["buildConfigurationList"]?.string))

        let targetIDs = project?["targets"]?.array?.compactMap(\.string) ?? []
        let targets = targetIDs.compactMap { id in objects[id].map { (id, $0) } }
        let apps = targets.filter { $0.1["productType"]?.string == "com.apple.product-type.application" }
        let chosen =
            apps.first { t in
                let s = preferred(configurations(t.1["buildConfigurationList"]?.string))
                let sdk = s["SDKROOT"]?.text ?? merged["SDKROOT"]?.text ?? ""
                return sdk.contains("iphoneos") || s["TARGETED_DEVICE_FAMILY"] != nil
                    || s["IPHONEOS_DEPLOYMENT_TARGET"] != nil
            } ?? apps.first
        var result = PBXBuildSettings()
        if let chosen {
            for (k, v) in preferred(configurations(chosen.1["buildConfigurationList"]?.string)) { merged[k] = v }
            result.targetName = chosen.1["name"]?.string
        }
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
        }
        result.appIconName = merged["ASSETCATALOG_COMPILER_APPICON_NAME"]?.text.flatMap(literal)
        result.launchImageName = merged["ASSETCATALOG_COMPILER_LAUNCHIMAGE_NAME"]?.text.flatMap(literal)
        result.infoPlistFile = merged["INFOPLIST_FILE"]?.text
        return result
    }

    /// Build-setting values with `$(VAR)` references cannot be resolved here; ignore them.
    static func literal(_ s: String) -> String? { s.contains("$(") || s.contains("${") || s.isEmpty ? nil : s }
}
