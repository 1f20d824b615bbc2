import RuleKit

extension BundleKeysKind {
    typealias T = ExampleTrees

    /// An app `App` and its share extension `Share` (MARKETING_VERSION 1.2, build 7, set at the
    /// project level), each target with `extra` settings of its own.
    static func project(appExtra: String = "", extensionExtra: String = "") -> ExampleFile {
        .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; targets = (T1, T2); };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { MARKETING_VERSION = 1.2; CURRENT_PROJECT_VERSION = 7; SDKROOT = iphoneos; }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = App/Info.plist; \(appExtra) }; };
            		T2 = {isa = PBXNativeTarget; name = Share; productType = "com.apple.product-type.app-extension"; buildConfigurationList = L3; };
            		L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
            		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = Share/Info.plist; \(extensionExtra) }; };
            	};
            	rootObject = P1;
            }
            """)
    }

    static let versions = ExamplePlistKeys.versions
    static let appPlist = T.plist("<key>CFBundleName</key><string>$(PRODUCT_NAME)</string>" + versions)
    static let extensionPoint = ExamplePlistKeys.extensionPoint

    static func app(extensionKeys: String, appPlist: ExampleFile = appPlist, appExtra: String = "", extensionExtra: String = "")
        -> [String: ExampleFile]
    {
        [
            "App.xcodeproj/project.pbxproj": project(appExtra: appExtra, extensionExtra: extensionExtra), "App/Info.plist": appPlist,
            "Share/Info.plist": T.plist(extensionKeys + extensionPoint),
        ]
    }

    static let goodKeys = ExamplePlistKeys.goodKeys

    /// A Flutter app (versions from pubspec.yaml) and a share extension with literal versions.
    static func flutter(extensionVersions: String) -> [String: ExampleFile] {
        [
            "ios/Runner.xcodeproj/project.pbxproj": .text(
                {
                    guard case .text(let t) = project() else { return "" }
                    return t.replacingOccurrences(of: "App/Info.plist", with: "Runner/Info.plist")
                }()),
            "ios/Runner/Info.plist": T.plist(
                "<key>CFBundleName</key><string>Runner</string><key>CFBundleShortVersionString</key><string>$(FLUTTER_BUILD_NAME)</string><key>CFBundleVersion</key><string>$(FLUTTER_BUILD_NUMBER)</string>"
            ),
            "ios/Share/Info.plist": T.plist(
                "<key>CFBundleDisplayName</key><string>Share</string><key>CFBundleName</key><string>Share</string><key>CFBundleExecutable</key><string>Share</string>"
                    + extensionVersions + extensionPoint),
            "pubspec.yaml": .text("name: app\nversion: 2.3.0+41\n"),
        ]
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a Flutter app at 2.3.0 (41) from pubspec.yaml and its extension at 1.0 (1)",
            files: flutter(
                extensionVersions:
                    "<key>CFBundleShortVersionString</key><string>1.0</string><key>CFBundleVersion</key><string>1</string>"),
            triggers: ["plist.extension-version"]),
        RuleExample(
            "a Flutter app and its extension on the same pubspec.yaml version",
            files: flutter(
                extensionVersions:
                    "<key>CFBundleShortVersionString</key><string>$(FLUTTER_BUILD_NAME)</string><key>CFBundleVersion</key><string>$(FLUTTER_BUILD_NUMBER)</string>"
            ), passes: ["plist.extension-version"]),
        RuleExample(
            "an extension Info.plist no target names (while every target names its own) is left over: said, not judged",
            files: app(extensionKeys: goodKeys).merging(["Other/Info.plist": T.plist(extensionPoint)]) { a, _ in a },
            triggers: ["project.left-out"], passes: ["plist.extension-keys"]),
        RuleExample("an extension as Xcode's template writes it", files: app(extensionKeys: goodKeys), passes: rules.map(\.id)),
        RuleExample(
            "a generated extension plist with INFOPLIST_KEY_CFBundleDisplayName",
            files: app(
                extensionKeys: "", extensionExtra: "GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_CFBundleDisplayName = \"Share to App\";"),
            passes: rules.map(\.id)),
        RuleExample(
            "an extension without CFBundleDisplayName",
            files: app(
                extensionKeys: goodKeys.replacingOccurrences(of: "<key>CFBundleDisplayName</key><string>$(PRODUCT_NAME)</string>", with: "")
            ),
            triggers: ["plist.extension-keys"]),
        RuleExample(
            "an extension's display name from a variable its target does not define",
            files: app(
                extensionKeys: goodKeys.replacingOccurrences(
                    of: "<key>CFBundleDisplayName</key><string>$(PRODUCT_NAME)",
                    with: "<key>CFBundleDisplayName</key><string>$(BUNDLE_DISPLAY_NAME)")),
            triggers: ["plist.extension-keys"]),
        RuleExample(
            "the app's Info.plist without CFBundleName", files: app(extensionKeys: goodKeys, appPlist: T.plist(versions)),
            triggers: ["plist.bundle-name-missing"]),
        RuleExample(
            "an extension with its own version",
            files: app(
                extensionKeys: goodKeys.replacingOccurrences(of: "<string>$(MARKETING_VERSION)</string>", with: "<string>2.0</string>")),
            triggers: ["plist.extension-version"], passes: ["plist.extension-keys"]),
    ]
}
