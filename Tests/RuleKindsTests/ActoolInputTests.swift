import Findings
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// An app icon set's files are actool's input (issue 58): it writes new icon files from them, so
/// their interlace and 16-bit depth are said as info, never as warnings; a loose icon, copied
/// into the bundle as it is, keeps the warning; a catalog of an app for iOS 9.3 or earlier keeps
/// ITMS-90682's error.
@Suite struct ActoolInputTests {
    static func severities(target: String, files: [String: ExampleFile]) throws -> [String: Severity] {
        var all = files
        all["App/.reswatch.yaml"] = .text("devices: [iphone]\ndeployment-target: \"\(target)\"\n")
        let engine = try TempTree(all).engine()
        var out: [String: Severity] = [:]
        for d in engine.diagnostics where d.rule.hasPrefix("image.") { out["\(d.rule) \(d.path)"] = d.severity }
        return out
    }

    static let set = "App/Assets.xcassets/AppIcon.appiconset"
    static let files: [String: ExampleFile] = [
        set + "/Contents.json": .text(#"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"a.png"}]}"#),
        set + "/a.png": .png(PNGSpec(width: 1024, height: 1024, bitDepth: 16, interlaced: true)),
        "App/Info.plist": .text(
            #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleIconFiles</key><array><string>Icon-60</string></array></dict></plist>"#
        ),
        "App/Icon-60@2x.png": .png(PNGSpec(width: 120, height: 120, bitDepth: 16, interlaced: true)),
    ]

    @Test func aCatalogIconsDepthAndInterlaceAreInfo() throws {
        let found = try Self.severities(target: "15.0", files: Self.files)
        #expect(found["image.16-bit \(Self.set)/a.png"] == .info, "\(found)")
        #expect(found["image.interlaced \(Self.set)/a.png"] == .info, "\(found)")
        #expect(found["image.16-bit App/Icon-60@2x.png"] == .warning, "a loose icon ships as it is: \(found)")
        #expect(found["image.interlaced App/Icon-60@2x.png"] == .warning, "\(found)")
    }

    @Test func iOS9CatalogsStillRejectSixteenBits() throws {
        let found = try Self.severities(target: "9.0", files: Self.files)
        #expect(found["image.16-bit \(Self.set)/a.png"] == .error, "ITMS-90682: \(found)")
    }
}
