/// What App Store Connect says for each ITMS code a rule carries: the words people paste into a
/// search box. Sources: ITMS wording (docs/sources.md; with the public
/// issues each wording was seen in) and modern-apple-resources.md §2.6 (privacy manifests) and §3
/// (bundle keys, watchOS, tvOS). "…" stands for a name of the uploaded app.
package enum ITMSWording {
    package static let byCode: [String: String] = [
        "ITMS-90013": "Corrupt Image File - The image file 'AppIcon60x60@2x.png' appears to be corrupt.",
        "ITMS-90022":
            "Missing required icon file. The bundle does not contain an app icon for iPhone / iPod Touch of exactly '120x120' pixels, in .png format…",
        "ITMS-90023": "Missing required icon file… app icon for iPad of exactly '152x152' / '167x167' / '76x76' pixels, in .png format",
        "ITMS-90032": "Invalid Image Path - No image found at the path referenced under key 'CFBundleIcons': 'AppIcon29x29'",
        "ITMS-90037":
            "This bundle is invalid. The Info.plist file is missing or could not be parsed. Please check it for embedded control characters.",
        "ITMS-90096":
            "Your binary is not optimized for iPhone 5 … must include a launch image referenced in the Info.plist under UILaunchImages with a UILaunchImageSize value set to {320, 568}",
        "ITMS-90360": "Missing Info.plist value - A value for the key 'CFBundleDisplayName' in bundle …/NSE.appex is required.",
        "ITMS-90396":
            "Invalid Icon. The watch application '…/WatchKit.app' contains an icon file '…-29x29@3x.png' with an alpha channel. Icons should not have an alpha channel.",
        "ITMS-90471": "Missing Image Asset. Your app is missing the App Store Icon asset",
        "ITMS-90474":
            "Invalid bundle. The \"…\" orientations were provided for the UISupportedInterfaceOrientations Info.plist key in the … bundle, but you need to include all of the \"…Portrait,…PortraitUpsideDown,…LandscapeLeft,…LandscapeRight\" orientations to support iPad multitasking.",
        "ITMS-90475":
            "Invalid Bundle. iPad Multitasking support requires launch storyboard in bundle '…' (newer: Because your app supports Multitasking on iPad, you need to include the X launch storyboard file…)",
        "ITMS-90682":
            "Invalid Bundle - The asset catalog at 'Payload/…/Assets.car' can't contain 16-bit or P3 assets if the app supports iOS 9.3 or earlier",
        "ITMS-90704":
            "Missing App Icon. An app icon measuring 1024 by 1024 pixels in PNG format must be included in the Asset Catalog of apps built for iOS, iPadOS, or watchOS.",
        "ITMS-90713": "Missing Info.plist value. A value for the Info.plist key 'CFBundleIconName' is missing in the bundle '…'",
        "ITMS-90717":
            "Invalid large app icon. The large app icon in the asset catalog in \"….app\" can't be transparent or contain an alpha channel. (older: Invalid App Store Icon … can't be transparent nor contain an alpha channel.)",
        "ITMS-90719": "Missing App Store Icon. WatchOS Apps must include a 1024x1024px App Store Icon in PNG format.",
        "ITMS-90738": "Invalid purpose string value - The \"\" value for the NSCameraUsageDescription key isn't allowed in '….app'",
        "ITMS-90784": "Missing bundle name. The Info.plist key CFBundleName is missing or has an empty value…",
        "ITMS-90890":
            "Missing recommended icon - The bundle does not contain an alternate app icon for iPhone / iPod Touch of exactly '120x120' pixels, in .png format…",
        "ITMS-90892": "Missing recommended icon - The bundle does not contain an alternate app icon for iPad of exactly '167x167' pixels…",
        "ITMS-91053":
            "Missing API declaration - Your app's code in the \"…\" file references one or more APIs that require reasons, including the following API categories: … you must include a NSPrivacyAccessedAPITypes array in your app's privacy manifest to provide approved reasons…",
        "ITMS-91054":
            "Invalid API category declaration - The PrivacyInfo.xcprivacy for the \"…\" file contains \"…\" as the value for a NSPrivacyAccessedAPIType key, which is invalid.",
        "ITMS-91055":
            "Invalid API reason declaration - The PrivacyInfo.xcprivacy for the \"…\" file contains \"…\" as the value for a NSPrivacyAccessedAPITypeReasons key instead of a valid reason code for using an API in the … category.",
        "ITMS-91056":
            "Invalid privacy manifest - The PrivacyInfo.xcprivacy file from the following path is invalid: \"PrivacyInfo.xcprivacy\". Keys and values in your app's privacy manifests must be valid.",
        "ITMS-91061":
            "Missing privacy manifest - Your app includes \"…\", which includes …, an SDK that was identified in the documentation as a privacy-impacting third-party SDK. … the SDK must include a privacy manifest file.",
        "ITMS-91064":
            "Invalid tracking information - A PrivacyInfo.xcprivacy file contains invalid tracking information at the following path: \"…\". NSPrivacyTracking must be true if NSPrivacyTrackingDomains isn't empty.",
    ]

    /// The wording for a rule's code ("ITMS-90890" also covers its iPad twin -90892).
    package static func wording(for code: String) -> String? { byCode[code] }
}
