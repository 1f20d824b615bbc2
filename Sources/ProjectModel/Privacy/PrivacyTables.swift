/// Apple's privacy-manifest tables, in one place, each with the page it comes from (through
/// Privacy manifests in docs/sources.md). A change on Apple's side is a change here.
public enum PrivacyTables {
    /// Required-reason API categories (`NSPrivacyAccessedAPIType`) and their approved reasons.
    /// "Describing use of required reason API",
    /// https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api
    public static let reasons: [String: Set<String>] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["DDA9.1", "C617.1", "3B52.1", "0A2A.1"],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1", "8FFB.1", "3D61.1"],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["85F4.1", "E174.1", "7D9E.1", "B728.1"],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["3EC4.1", "54BD.1"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1", "1C8F.1", "C56D.1", "AC6B.1"],
    ]

    /// Reasons only a third-party SDK may give (same page: "wrapper … for third-party SDKs only").
    public static let sdkOnlyReasons: Set<String> = ["0A2A.1", "C56D.1"]

    /// The category a reason code belongs to, for messages.
    public static func category(of reason: String) -> String? { reasons.first { $0.value.contains(reason) }?.key }

    /// Collected data types (`NSPrivacyCollectedDataType`). "Describing data use in privacy
    /// manifests", https://developer.apple.com/documentation/bundleresources/describing-data-use-in-privacy-manifests
    /// (Apple spells `PhotosorVideos` with a lower-case "or").
    public static let dataTypes: Set<String> = Set(
        [
            "Name", "EmailAddress", "PhoneNumber", "PhysicalAddress", "OtherUserContactInfo", "Health", "Fitness", "PaymentInfo",
            "CreditInfo", "OtherFinancialInfo", "PreciseLocation", "CoarseLocation", "SensitiveInfo", "Contacts",
            "EmailsOrTextMessages", "PhotosorVideos", "AudioData", "GameplayContent", "CustomerSupport", "OtherUserContent",
            "BrowsingHistory", "SearchHistory", "UserID", "DeviceID", "PurchaseHistory", "ProductInteraction", "AdvertisingData",
            "OtherUsageData", "CrashData", "PerformanceData", "OtherDiagnosticData", "EnvironmentScanning", "Hands", "Head",
            "OtherDataTypes",
        ].map { "NSPrivacyCollectedDataType" + $0 })

    /// Collection purposes (`NSPrivacyCollectedDataTypePurposes`), same page.
    public static let purposes: Set<String> = Set(
        ["ThirdPartyAdvertising", "DeveloperAdvertising", "Analytics", "ProductPersonalization", "AppFunctionality", "Other"].map {
            "NSPrivacyCollectedDataTypePurpose" + $0
        })

    /// The manifest's keys and their types ("App privacy configuration",
    /// https://developer.apple.com/documentation/bundleresources/app-privacy-configuration).
    public enum ValueType: String, Sendable {
        case bool = "a Boolean", array = "an array", string = "a string", dictionary = "a dictionary"
    }
    public static let topLevelKeys: [String: ValueType] = [
        "NSPrivacyTracking": .bool, "NSPrivacyTrackingDomains": .array, "NSPrivacyCollectedDataTypes": .array,
        "NSPrivacyAccessedAPITypes": .array,
    ]
    public static let collectedDataKeys: [String: ValueType] = [
        "NSPrivacyCollectedDataType": .string, "NSPrivacyCollectedDataTypeLinked": .bool, "NSPrivacyCollectedDataTypeTracking": .bool,
        "NSPrivacyCollectedDataTypePurposes": .array,
    ]
    public static let accessedAPIKeys: [String: ValueType] = [
        "NSPrivacyAccessedAPIType": .string, "NSPrivacyAccessedAPITypeReasons": .array,
    ]

    /// Apple's "commonly used third-party SDKs" that must carry a privacy manifest (and a signature
    /// when shipped as a binary): "Upcoming third-party SDK requirements",
    /// https://developer.apple.com/support/third-party-SDK-requirements ("any version of a listed
    /// SDK, as well as any SDKs that repackage those on the list"). Matched by framework name.
    public static let listedSDKs: Set<String> = [
        "Abseil", "AFNetworking", "Alamofire", "AppAuth", "BoringSSL", "openssl_grpc", "Capacitor", "Charts", "connectivity_plus",
        "Cordova", "device_info_plus", "DKImagePickerController", "DKPhotoGallery", "FBAEMKit", "FBLPromises", "FBSDKCoreKit",
        "FBSDKCoreKit_Basics", "FBSDKLoginKit", "FBSDKShareKit", "file_picker", "FirebaseABTesting", "FirebaseAuth", "FirebaseCore",
        "FirebaseCoreDiagnostics", "FirebaseCoreExtension", "FirebaseCoreInternal", "FirebaseCrashlytics", "FirebaseDynamicLinks",
        "FirebaseFirestore", "FirebaseInstallations", "FirebaseMessaging", "FirebaseRemoteConfig", "Flutter", "flutter_inappwebview",
        "flutter_local_notifications", "fluttertoast", "FMDB", "geolocator_apple", "GoogleDataTransport", "GoogleSignIn",
        "GoogleToolboxForMac", "GoogleUtilities", "grpcpp", "GTMAppAuth", "GTMSessionFetcher", "hermes", "image_picker_ios",
        "IQKeyboardManager", "IQKeyboardManagerSwift", "Kingfisher", "leveldb", "Lottie", "MBProgressHUD", "nanopb", "OneSignal",
        "OneSignalCore", "OneSignalExtension", "OneSignalOutcomes", "OpenSSL", "OrderedSet", "package_info", "package_info_plus",
        "path_provider", "path_provider_ios", "Promises", "Protobuf", "Reachability", "RealmSwift", "RxCocoa", "RxRelay", "RxSwift",
        "SDWebImage", "share_plus", "shared_preferences_ios", "SnapKit", "sqflite", "Starscream", "SVProgressHUD", "SwiftyGif",
        "SwiftyJSON", "Toast", "UnityFramework", "url_launcher", "url_launcher_ios", "video_player_avfoundation", "wakelock",
        "webview_flutter_wkwebview",
    ]
}
