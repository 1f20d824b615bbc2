import ImageFacts
import RuleKit

/// Small builders for the example trees kinds carry.
package enum ExampleTrees {
    static let iconSet = "App/Assets.xcassets/AppIcon.appiconset"

    /// A Contents.json with the given entries: (idiom, size, scale, filename?) — scale nil omits it.
    static func contents(_ entries: [(String, String, String?, String?)], extra: [String] = []) -> ExampleFile {
        var items = entries.map { e -> String in
            var fields = ["\"idiom\" : \"\(e.0)\"", "\"size\" : \"\(e.1)\""]
            if let s = e.2 { fields.append("\"scale\" : \"\(s)\"") }
            if let f = e.3 { fields.append("\"filename\" : \"\(f)\"") }
            if e.0 == "universal" { fields.append("\"platform\" : \"ios\"") }
            return "    {\n      " + fields.joined(separator: ",\n      ") + "\n    }"
        }
        items += extra
        return .text(
            "{\n  \"images\" : [\n" + items.joined(separator: ",\n")
                + "\n  ],\n  \"info\" : { \"author\" : \"xcode\", \"version\" : 1 }\n}\n")
    }

    /// `transparent`: the centre pixel is fully transparent (a see-through hole, not a masked corner).
    static func png(_ side: Int, _ color: PNGSpec.Color = .rgb, transparent: Bool = false) -> ExampleFile {
        var spec = PNGSpec(width: side, height: side, color: color, transparentPixels: transparent)
        if transparent { spec.transparentAt = (side / 2, side / 2) }
        return .png(spec)
    }

    /// An Xcode project with one iOS app target `App` (Release) building with `appIcon`.
    static func pbxproj(appIcon: String) -> ExampleFile {
        pbxproj(
            buildSettings:
                "ASSETCATALOG_COMPILER_APPICON_NAME = \(appIcon); INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; TARGETED_DEVICE_FAMILY = 1; IPHONEOS_DEPLOYMENT_TARGET = 15.0;"
        )
    }

    /// An Xcode project with one iOS app target `App` whose Release configuration has
    /// `buildSettings` (`KEY = VALUE;` pairs); the project's own configuration sets nothing.
    package static func pbxproj(buildSettings: String) -> ExampleFile {
        .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; targets = (T1); };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { \(buildSettings) }; };
            	};
            	rootObject = P1;
            }
            """)
    }

    static func config(devices: String = "[iphone]", target: String = "15.0", extra: String = "") -> ExampleFile {
        .text("devices: \(devices)\ndeployment-target: \"\(target)\"\n\(extra)")
    }

    /// An XML Info.plist with the given body inside its top-level dict.
    static func plist(_ body: String) -> ExampleFile {
        .text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n")
    }

    /// A single-size (Xcode 14+) icon set with a good 1024 icon.
    static func singleSize(_ file: ExampleFile = png(1024)) -> [String: ExampleFile] {
        [
            "App/.reswatch.yaml": config(),
            iconSet + "/Contents.json": contents([("universal", "1024x1024", nil, "icon.png")]),
            iconSet + "/icon.png": file,
        ]
    }

    /// A complete iPhone all-sizes set for iOS 15.
    static func iphoneAllSizes(override: [String: ExampleFile] = [:]) -> [String: ExampleFile] {
        let slots: [(String, String, String, Int)] = [
            ("iphone", "20x20", "2x", 40), ("iphone", "20x20", "3x", 60), ("iphone", "29x29", "2x", 58),
            ("iphone", "29x29", "3x", 87), ("iphone", "40x40", "2x", 80), ("iphone", "40x40", "3x", 120),
            ("iphone", "60x60", "2x", 120), ("iphone", "60x60", "3x", 180), ("ios-marketing", "1024x1024", "1x", 1024),
        ]
        var files: [String: ExampleFile] = ["App/.reswatch.yaml": config()]
        var entries: [(String, String, String?, String?)] = []
        for (idiom, size, scale, px) in slots {
            let name = "\(idiom)-\(size)@\(scale).png"
            entries.append((idiom, size, scale, name))
            files[iconSet + "/" + name] = png(px)
        }
        files[iconSet + "/Contents.json"] = contents(entries)
        for (k, v) in override { files[k] = v }
        return files
    }
}
