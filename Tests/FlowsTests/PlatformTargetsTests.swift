import Foundation
import ImageFacts
import TestSupport
import Testing

/// A project with an iOS app, a watchOS app and a tvOS app, through the real binary: the watch
/// app's icon set and the tvOS brand assets are judged, and what is not judged of each is said.
@Suite struct PlatformTargetsTests {
    static let pbxproj = """
        // !$*UTF8*$!
        {
        	objects = {
        		P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G0; targets = (T1, T2, T3); };
        		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
        		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
        		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
        		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
        		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
        		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 17.0; }; };
        		T2 = {isa = PBXNativeTarget; name = Watch; productType = "com.apple.product-type.application"; buildConfigurationList = L3; };
        		L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
        		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = watchos; INFOPLIST_FILE = Watch/Info.plist; ASSETCATALOG_COMPILER_APPICON_NAME = WatchIcon; }; };
        		T3 = {isa = PBXNativeTarget; name = TV; productType = "com.apple.product-type.application"; buildConfigurationList = L4; };
        		L4 = {isa = XCConfigurationList; buildConfigurations = (C4); };
        		C4 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = appletvos; INFOPLIST_FILE = TV/Info.plist; ASSETCATALOG_COMPILER_APPICON_NAME = "App Icon & Top Shelf Image"; }; };
        	};
        	rootObject = P1;
        }
        """

    static let plist =
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleName</key><string>X</string></dict></plist>"#

    @Test func watchIconsAndTVBrandAssetsAreJudgedAndTheRestIsSaid() throws {
        let watch = "Watch/Assets.xcassets/WatchIcon.appiconset"
        let brand = "TV/Assets.xcassets/App Icon & Top Shelf Image.brandassets"
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": .text(Self.pbxproj),
            "App/Info.plist": .text(Self.plist),
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"i.png"}]}"#),
            "App/Assets.xcassets/AppIcon.appiconset/i.png": .png(PNGSpec(width: 1024, height: 1024)),
            "Watch/Info.plist": .text(Self.plist),
            watch + "/Contents.json": .text(
                #"{"images":[{"idiom":"watch","size":"40x40","scale":"2x","role":"appLauncher","subtype":"38mm","filename":"l.png"}]}"#),
            watch + "/l.png": .png(PNGSpec(width: 80, height: 80, color: .rgba)),
            "TV/Info.plist": .text(Self.plist),
            brand + "/Contents.json": .text(
                #"{"assets":[{"size":"1280x768","idiom":"tv-marketing","filename":"Store.imagestack","role":"primary-app-icon"}]}"#),
        ])
        let (result, diagnostics) = checkDiagnostics([tree.path])
        let found = diagnostics.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" }
        #expect(found.contains("icon.watch-marketing-missing \(watch)/Contents.json"), "\(found)")
        #expect(found.contains("icon.watch-alpha \(watch)/l.png"), "\(found)")
        #expect(found.contains("tv.appstore-icon \(brand)/Contents.json"), "\(found)")
        let said = diagnostics.filter { $0["rule"] as? String == "project.not-checked" }.compactMap { $0["message"] as? String }
        #expect(said.contains { $0.hasPrefix("Watch (watchOS application): only its app icon set (") }, "\(said)")
        #expect(said.contains { $0.hasPrefix("TV (tvOS application): only its App Icon & Top Shelf brand assets are checked") }, "\(said)")
        #expect(result.status == 1)
    }
}
