import ProjectModel
import Testing

/// What Xcode generates into a target's Info.plist from build settings, and how it merges that
/// over the file (swift-build's InfoPlistProcessor: a scalar replaces, an array is appended to,
/// a dictionary is merged one level).
@Suite struct GeneratedInfoPlistTests {
    static func settings(_ pairs: [String: String]) -> ResolvedBuildSettings {
        let origin = SettingOrigin(file: "project.pbxproj", line: 1, detail: "test")
        return ResolvedBuildSettings(
            levels: [pairs.map { SettingAssignment(key: $0.key, value: $0.value, origin: origin) }], builtins: ["TARGET_NAME": "App"])
    }

    @Test func theKeysAreTypedAsXcodeWritesThem() {
        let content = GeneratedInfoPlist.content(
            Self.settings([
                "GENERATE_INFOPLIST_FILE": "YES", "INFOPLIST_KEY_UIApplicationSupportsIndirectInputEvents": "YES",
                "INFOPLIST_KEY_UISupportedInterfaceOrientations_iPad": "UIInterfaceOrientationPortrait UIInterfaceOrientationLandscapeLeft",
                "INFOPLIST_KEY_NSCameraUsageDescription": "Scan codes", "INFOPLIST_KEY_UILaunchScreen_Generation": "YES",
                "INFOPLIST_KEY_UIApplicationSceneManifest_Generation": "YES", "MARKETING_VERSION": "2.1",
                "INFOPLIST_KEY_CFBundleDisplayName": "$(UNKNOWN_SETTING)",
            ]), isApplication: true, platform: .iOS)
        #expect(content["UIApplicationSupportsIndirectInputEvents"] == .boolean(true))
        #expect(
            content["UISupportedInterfaceOrientations~ipad"]
                == .array([.string("UIInterfaceOrientationPortrait"), .string("UIInterfaceOrientationLandscapeLeft")]))
        #expect(content["NSCameraUsageDescription"] == .string("Scan codes"))
        #expect(content["UILaunchScreen"]?["UILaunchScreen"] == .dictionary([:]))
        #expect(content["UIApplicationSceneManifest"]?["UISceneConfigurations"] == .dictionary([:]))
        #expect(content["CFBundleShortVersionString"] == .string("2.1"))
        #expect(content["CFBundleName"] == .string("App"), "PRODUCT_NAME defaults to $(TARGET_NAME)")
        #expect(content["LSRequiresIPhoneOS"] == .boolean(true))
        #expect(content["CFBundleDisplayName"]?.string?.contains("$(") == true, "an unresolvable value stays as written, not absent")
    }

    @Test func nothingIsGeneratedWithoutGenerateInfoPlistFile() {
        let content = GeneratedInfoPlist.content(
            Self.settings(["INFOPLIST_KEY_NSCameraUsageDescription": "Scan"]), isApplication: true, platform: .iOS)
        #expect(content.isEmpty)
    }

    @Test func theGeneratedContentIsMergedOverTheFile() {
        let merged = GeneratedInfoPlist.merged(
            [
                "CFBundleDisplayName": .string("File"), "UIBackgroundModes": .array([.string("fetch")]),
                "UILaunchScreen": .dictionary(["UIColorName": .string("Brand")]), "NSCameraUsageDescription": .string("file"),
                "UIRequiredDeviceCapabilities": .dictionary(["arm64": .boolean(true)]),
            ],
            [
                "CFBundleDisplayName": .string("Setting"), "UIBackgroundModes": .array([.string("fetch"), .string("processing")]),
                "UILaunchScreen": .dictionary(["UIImageName": .string("Logo")]),
                "UIRequiredDeviceCapabilities": .array([.string("arm64")]),
            ])
        #expect(merged["CFBundleDisplayName"] == .string("Setting"), "a scalar from settings replaces the file's")
        #expect(merged["UIBackgroundModes"] == .array([.string("fetch"), .string("processing")]), "appended, without duplicates")
        #expect(merged["UILaunchScreen"] == .dictionary(["UIColorName": .string("Brand"), "UIImageName": .string("Logo")]))
        #expect(merged["NSCameraUsageDescription"] == .string("file"))
        #expect(merged["UIRequiredDeviceCapabilities"]?.dictionary != nil, "types that do not merge: the file's (Xcode fails the build)")
    }
}
