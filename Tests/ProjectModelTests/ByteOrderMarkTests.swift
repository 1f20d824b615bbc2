import Foundation
import Testing

@testable import ProjectModel

/// Editors on Windows start UTF-8 files with a byte-order mark. Every text reader of a project
/// file reads such a file as it reads the same file without one (xcconfig: XcconfigResolutionTests).
@Suite struct ByteOrderMarkTests {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test func contentsJSON() throws {
        let json = #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"a.png"}],"info":{"version":1,"author":"xcode"}}"#
        let contents = try AssetContentsReader.parse(Self.bom + Array(json.utf8)).get()
        #expect(contents.images.map(\.filename) == ["a.png"])
    }

    @Test func xmlPropertyList() throws {
        let xml =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIconName</key><string>AppIcon</string></dict></plist>"#
        let (value, _) = try PropertyListReader.parse(Self.bom + Array(xml.utf8)).get()
        #expect(value["CFBundleIconName"]?.string == "AppIcon")
    }

    @Test func openStepProjectFile() throws {
        let text = "// !$*UTF8*$!\n{ archiveVersion = 1; objects = { }; rootObject = ABC; }\n"
        let (value, _) = try PropertyListReader.parse(Self.bom + Array(text.utf8)).get()
        #expect(value["rootObject"]?.string == "ABC")
    }

    @Test func projectConfiguration() {
        let source = String(decoding: Self.bom + Array("devices: [ipad]\n".utf8), as: UTF8.self)
        let (config, problems) = ProjectConfigReader.parse(source)
        #expect(problems.isEmpty, "\(problems)")
        #expect(config.devices == Set([Device.ipad]))
    }
}
