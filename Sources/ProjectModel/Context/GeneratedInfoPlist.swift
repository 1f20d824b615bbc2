import SystemCalls

/// The Info.plist Xcode builds for a target, as far as build settings make it (issue 58, the
/// effective Info.plist; the ground for issue 59's rules). With `GENERATE_INFOPLIST_FILE = YES`
/// Xcode generates keys from `INFOPLIST_KEY_*` settings (and a few product settings) and merges
/// them over the target's `INFOPLIST_FILE` the way it merges any additional content: a scalar
/// replaces the file's value, an array is appended to without duplicates, a dictionary is merged
/// one level deep. Source: swiftlang/swift-build, `InfoPlistProcessorTaskAction.swift`
/// (`defaultInfoPlistContent`, `addAdditionalContent`).
public enum GeneratedInfoPlist {
    /// The keys swift-build generates from `INFOPLIST_KEY_<key>` (`~ipad` / `~iphone` are
    /// spelled `_iPad` / `_iPhone` in the setting's name).
    static let keys: [String] = [
        "CFBundleDisplayName", "LSApplicationCategoryType", "NSHumanReadableCopyright", "NSPrincipalClass", "ITSAppUsesNonExemptEncryption",
        "ITSEncryptionExportComplianceCode", "LSBackgroundOnly", "LSUIElement", "NSMainNibFile", "NSMainStoryboardFile",
        "UILaunchStoryboardName", "UIMainStoryboardFile", "UIRequiredDeviceCapabilities", "UISupportedInterfaceOrientations",
        "UIUserInterfaceStyle", "LSSupportsOpeningDocumentsInPlace", "NSSensorKitPrivacyPolicyURL", "NSSupportsLiveActivities",
        "NSSupportsLiveActivitiesFrequentUpdates", "UIApplicationSupportsIndirectInputEvents", "UIRequiresFullScreen",
        "UIStatusBarHidden", "UIStatusBarStyle", "UISupportedInterfaceOrientations~ipad", "UISupportedInterfaceOrientations~iphone",
        "UISupportsDocumentBrowser", "CLKComplicationPrincipalClass", "WKApplication", "WKCompanionAppBundleIdentifier",
        "WKExtensionDelegateClassName", "WKRunsIndependentlyOfCompanionApp", "WKWatchOnly", "MetalCaptureEnabled",
        "GCSupportsControllerUserInteraction", "GCSupportsGameMode", "NSStickerSharingLevel",
    ]
    /// Purpose strings swift-build generates the same way (`usageDescriptionStringKeys`).
    static let usageKeys: [String] = [
        "NFCReaderUsageDescription", "NSAppleEventsUsageDescription", "NSAppleMusicUsageDescription", "NSBluetoothAlwaysUsageDescription",
        "NSBluetoothPeripheralUsageDescription", "NSBluetoothWhileInUseUsageDescription", "NSCalendarsUsageDescription",
        "NSCameraUsageDescription", "NSContactsUsageDescription", "NSDesktopFolderUsageDescription", "NSDocumentsFolderUsageDescription",
        "NSDownloadsFolderUsageDescription", "NSFaceIDUsageDescription", "NSFallDetectionUsageDescription",
        "NSFileProviderDomainUsageDescription", "NSFileProviderPresenceUsageDescription", "NSFocusStatusUsageDescription",
        "NSGKFriendListUsageDescription", "NSHealthClinicalHealthRecordsShareUsageDescription", "NSHealthShareUsageDescription",
        "NSHealthUpdateUsageDescription", "NSHomeKitUsageDescription", "NSIdentityUsageDescription", "NSLocalNetworkUsageDescription",
        "NSLocationAlwaysAndWhenInUseUsageDescription", "NSLocationAlwaysUsageDescription", "NSLocationUsageDescription",
        "NSLocationWhenInUseUsageDescription", "NSMicrophoneUsageDescription", "NSMotionUsageDescription",
        "NSNearbyInteractionAllowOnceUsageDescription", "NSNearbyInteractionUsageDescription", "NSNetworkVolumesUsageDescription",
        "NSPhotoLibraryAddUsageDescription", "NSPhotoLibraryUsageDescription", "NSRemindersUsageDescription",
        "NSRemovableVolumesUsageDescription", "NSSensorKitUsageDescription", "NSSiriUsageDescription",
        "NSSpeechRecognitionUsageDescription", "NSSystemAdministrationUsageDescription", "NSSystemExtensionUsageDescription",
        "NSUserTrackingUsageDescription", "NSVideoSubscriberAccountUsageDescription", "NSVoIPUsageDescription", "OSBundleUsageDescription",
    ]
    /// Boolean-typed settings (written as plist booleans).
    static let booleans: Set<String> = [
        "ITSAppUsesNonExemptEncryption", "LSBackgroundOnly", "LSUIElement", "LSSupportsOpeningDocumentsInPlace", "NSSupportsLiveActivities",
        "NSSupportsLiveActivitiesFrequentUpdates", "UIApplicationSupportsIndirectInputEvents", "UIRequiresFullScreen", "UIStatusBarHidden",
        "UISupportsDocumentBrowser", "WKApplication", "WKRunsIndependentlyOfCompanionApp", "WKWatchOnly", "MetalCaptureEnabled",
        "GCSupportsControllerUserInteraction", "GCSupportsGameMode",
    ]
    /// List-typed settings (space-separated words, written as arrays).
    static let lists: Set<String> = [
        "UIRequiredDeviceCapabilities", "UISupportedInterfaceOrientations", "UISupportedInterfaceOrientations~ipad",
        "UISupportedInterfaceOrientations~iphone",
    ]
    /// Keys Xcode generates from product settings, when the setting is defined.
    static let productKeys: [(String, String)] = [
        ("CFBundleName", "PRODUCT_NAME"), ("CFBundleExecutable", "EXECUTABLE_NAME"), ("CFBundleVersion", "CURRENT_PROJECT_VERSION"),
        ("CFBundleDevelopmentRegion", "DEVELOPMENT_LANGUAGE"), ("CFBundleIdentifier", "PRODUCT_BUNDLE_IDENTIFIER"),
        ("CFBundlePackageType", "PRODUCT_BUNDLE_PACKAGE_TYPE"), ("CFBundleShortVersionString", "MARKETING_VERSION"),
    ]

    /// The setting that generates `key`.
    public static func settingName(of key: String) -> String {
        "INFOPLIST_KEY_" + LiteralText.replacing("~ipad", with: "_iPad", in: LiteralText.replacing("~iphone", with: "_iPhone", in: key))
    }

    /// What Xcode generates for a target with these settings; empty unless it generates its
    /// Info.plist. A value whose references cannot be resolved is kept as written (`$(…)`), so a
    /// rule can tell it is not known rather than absent.
    public static func content(_ settings: ResolvedBuildSettings, isApplication: Bool, platform: ResolvedTarget.Platform)
        -> [String: PlistValue]
    {
        guard isYes(settings.string("GENERATE_INFOPLIST_FILE")) else { return [:] }
        var out: [String: PlistValue] = [:]
        func value(_ name: String) -> String? { settings.values[name].map { settings.string(name) ?? $0.raw } }
        for key in keys + usageKeys {
            // An empty setting is taken as unset: whether Xcode writes an empty key for it is
            // not documented, and an empty value it might not write must not be an error.
            guard let text = value(settingName(of: key)), !text.isEmpty else { continue }
            out[key] = typed(key, text)
        }
        for (key, setting) in productKeys {
            if let text = value(setting), !text.isEmpty { out[key] = .string(text) }
        }
        out["CFBundleInfoDictionaryVersion"] = .string("6.0")
        if isApplication, [.iOS, .tvOS, .unknown].contains(platform) { out["LSRequiresIPhoneOS"] = .boolean(true) }
        if isYes(value("INFOPLIST_KEY_UILaunchScreen_Generation")) {
            out["UILaunchScreen"] = .dictionary(["UILaunchScreen": .dictionary([:])])
        }
        if isYes(value("INFOPLIST_KEY_UIApplicationSceneManifest_Generation")) {
            out["UIApplicationSceneManifest"] = .dictionary([
                "UIApplicationSupportsMultipleScenes": .boolean(true), "UISceneConfigurations": .dictionary([:]),
            ])
        }
        return out
    }

    static func typed(_ key: String, _ text: String) -> PlistValue {
        if booleans.contains(key), let b = PlistValue.string(text).bool { return .boolean(b) }
        if lists.contains(key) { return .array(text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { .string(String($0)) }) }
        return .string(text)
    }

    static func isYes(_ text: String?) -> Bool { text.map { ["YES", "yes", "1", "true", "TRUE"].contains($0) } ?? false }

    /// The file's dictionary with the generated content merged over it, as Xcode merges.
    public static func merged(_ file: [String: PlistValue], _ generated: [String: PlistValue]) -> [String: PlistValue] {
        var out = file
        for (key, new) in generated {
            guard let old = out[key] else {
                out[key] = new
                continue
            }
            switch (old, new) {
            case (.array(let a), .array(let b)): out[key] = .array(a + b.filter { !a.contains($0) })
            case (.dictionary(var a), .dictionary(let b)):
                a.merge(b) { _, n in n }
                out[key] = .dictionary(a)
            case (.array, _), (.dictionary, _), (_, .array), (_, .dictionary): break  // Xcode refuses to merge these: the build fails
            default: out[key] = new
            }
        }
        return out
    }
}
