import RuleKit

extension PrivacyBundlingKind {
    /// An Xcode project whose app bundles `resources` (root-relative paths).
    static func project(resources: [String]) -> ExampleFile {
        let refs = resources.enumerated().map { i, p in "F\(i) = {isa = PBXFileReference; path = \"\(p)\"; sourceTree = \"<group>\"; };" }
        let builds = resources.indices.map { "B\($0) = {isa = PBXBuildFile; fileRef = F\($0); };" }
        let phase = "R1 = {isa = PBXResourcesBuildPhase; files = (\(resources.indices.map { "B\($0)" }.joined(separator: ", "))); };"
        return .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1); };
            		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; buildPhases = (R1); };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; }; };
            		\((refs + builds + [phase]).joined(separator: "\n\t\t"))
            	};
            	rootObject = P1;
            }
            """)
    }

    static let manifest = ExampleTrees.plist("<key>NSPrivacyTracking</key><false/>")

    package static let examples: [RuleExample] = [
        RuleExample(
            "the manifest is a resource of the app",
            files: [
                "App.xcodeproj/project.pbxproj": project(resources: ["App/Assets.xcassets", "App/PrivacyInfo.xcprivacy"]),
                "App/PrivacyInfo.xcprivacy": manifest,
            ], passes: ["privacy.not-in-target"]),
        RuleExample(
            "the manifest is on disk but in no target",
            files: ["App.xcodeproj/project.pbxproj": project(resources: ["App/Assets.xcassets"]), "App/PrivacyInfo.xcprivacy": manifest],
            triggers: ["privacy.not-in-target"]),
        RuleExample(
            "a listed SDK vendored as an xcframework without a manifest",
            files: ["Vendor/Alamofire.xcframework/ios-arm64/Alamofire.framework/Info.plist": ExampleTrees.plist("")],
            triggers: ["privacy.sdk-manifest-missing"]),
        RuleExample(
            "a listed SDK whose slice carries its manifest, and an unlisted one without",
            files: [
                "Vendor/Alamofire.xcframework/ios-arm64/Alamofire.framework/PrivacyInfo.xcprivacy": manifest,
                "Vendor/HomeMade.framework/Info.plist": ExampleTrees.plist(""),
            ], passes: ["privacy.sdk-manifest-missing"]),
    ]
}
