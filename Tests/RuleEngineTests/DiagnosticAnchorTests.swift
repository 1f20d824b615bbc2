import Foundation
import RuleKit
import SystemCalls
import TestSupport
import Testing

@testable import RuleEngine

/// Findings about a missing file or a folder are shown on the file that declares it, at its line;
/// findings in an XML plist carry the line of the key they are about.
@Suite struct DiagnosticAnchorTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"

    func anchor(
        _ files: [String: ExampleFile], _ path: String, line: Int? = nil, project: String = "App", message: String = "",
        key: String? = nil
    ) throws -> DiagnosticAnchor.Location {
        let temp = try TempTree(files)
        var tree = ResourceTree(root: temp.path)
        _ = tree.scanAll()
        let anchor = DiagnosticAnchor(
            isFile: { tree.isFile($0) }, list: { (try? tree.entries(of: $0).get()) ?? [] },
            read: { try? FileSystem.readFile(tree.absolute($0), limit: 1 << 20) })
        return anchor.anchor(.init(path: path, line: line, related: []), projectDirectory: project, message: message, key: key)
    }

    @Test func aMissingFileOfASetIsShownOnTheContentsJsonLineThatNamesIt() throws {
        let contents = "{\n  \"images\" : [\n    {\n      \"idiom\" : \"iphone\",\n      \"filename\" : \"gone.png\"\n    }\n  ]\n}\n"
        let at = try anchor([Self.set + "/Contents.json": .text(contents)], Self.set + "/gone.png", line: 3)
        #expect(at == .init(path: Self.set + "/Contents.json", line: 5, column: 7, related: [Self.set + "/gone.png"]))
    }

    @Test func aFindingAboutASetIsShownOnItsContentsJson() throws {
        let at = try anchor([Self.set + "/Contents.json": .text("{}")], Self.set)
        #expect(at == .init(path: Self.set + "/Contents.json", line: 1, column: 1, related: [Self.set]), "the document's start")
        let listed = try anchor([Self.set + "/Contents.json": .text("{\n  \"images\" : [\n  ]\n}\n")], Self.set)
        #expect(listed.line == 2 && listed.column == 3, "the \"images\" list, where an entry goes")
    }

    @Test func aSetWithoutContentsJsonIsShownOnAFileOfItsOwn() throws {
        let at = try anchor([Self.set + "/b.png": .text(""), Self.set + "/a.png": .text("")], Self.set)
        #expect(at.path == Self.set + "/a.png")
        #expect(at.related == [Self.set])
    }

    @Test func aProjectFindingIsShownOnThePbxprojAndAMissingFileAtTheLineThatNamesIt() throws {
        let pbxproj =
            "// !$*UTF8*$!\n{\n\t\tAB /* Release.xcconfig */ = {isa = PBXFileReference; path = Release.xcconfig; };\n"
            + "\t\tCD = {isa = PBXTargetDependency; target = EF /* Widget */; };\n\t\tEF /* Widget */ = {\n\t\t\tisa = PBXNativeTarget;\n}\n"
        let files: [String: ExampleFile] = ["App/App.xcodeproj/project.pbxproj": .text(pbxproj), "App/Info.plist": .text("")]
        let project = try anchor(files, "App")
        #expect(project == .init(path: "App/App.xcodeproj/project.pbxproj", line: 1, column: 1, related: ["App"]), "the file's start")
        let xcconfig = try anchor(files, "App/Config/Release.xcconfig")
        #expect(
            xcconfig == .init(path: "App/App.xcodeproj/project.pbxproj", line: 3, column: 3, related: ["App/Config/Release.xcconfig"]))
        let target = try anchor(files.merging(["App/Widget/x.txt": .text("")]) { a, _ in a }, "App/Widget")
        #expect(target.line == 5, "the target's declaration, not a reference to it")
    }

    @Test func aProjectFindingAboutABuildSettingIsShownAtTheLineThatSetsIt() throws {
        let pbxproj = "{\n\t\t\tINFOPLIST_FILE = \"Lite-Info.plist\";\n\t\t\tINFOPLIST_FILE = \"Pro-Info.plist\";\n}\n"
        let files: [String: ExampleFile] = ["App/App.xcodeproj/project.pbxproj": .text(pbxproj)]
        let at = try anchor(files, "App", message: "target Pro: INFOPLIST_FILE names App/Pro-Info.plist, which is not in the checked tree")
        #expect(at.path == "App/App.xcodeproj/project.pbxproj" && at.line == 3)
        #expect(try anchor(files, "App", message: "INFOPLIST_FILE is not set").line == 2)
        #expect(try anchor(files, "App", message: "no setting named here").line == 1, "the file's start")
        #expect(try anchor(files, "App", message: "target Pro: the icon is missing").line == 1, "a target the file does not declare")
    }

    @Test func withoutAnXcodeProjectTheConfigurationOrInfoPlistDeclaresTheProject() throws {
        #expect(try anchor(["App/.reswatch.yaml": .text(""), "App/Info.plist": .text("")], "App").path == "App/.reswatch.yaml")
        #expect(try anchor(["App/Info.plist": .text("")], "App").path == "App/Info.plist")
        #expect(try anchor(["App/x.txt": .text("")], "App").path == "App", "nothing declares it: left as it is")
    }

    @Test func anXMLPlistFindingGetsTheLineOfItsKeyAndOfTheValueItQuotes() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
              <key>CFBundleIconFiles</key>
              <array>
                <string>Icon.png</string>
                <string>Gone.png</string>
              </array>
              <key>NSCameraUsageDescription</key>
              <string></string>
            </dict>
            </plist>
            """
        let files: [String: ExampleFile] = ["App/Info.plist": .text(plist)]
        #expect(try anchor(files, "App/Info.plist", message: "CFBundleIconFiles names \"Gone.png\", but …").line == 7)
        #expect(try anchor(files, "App/Info.plist", message: "NSCameraUsageDescription is empty").line == 9)
        let missing = try anchor(files, "App/Info.plist", message: "the app's Info.plist has no UILaunchStoryboardName")
        #expect(missing.line == 3 && missing.column == 1, "a missing key: the dictionary it goes in")
        #expect(missing.hint == "add <key>UILaunchStoryboardName</key> to the top-level <dict> at line 3")
        #expect(
            try anchor(files, "App/Info.plist", message: "UIInterfaceOrientationPortrait is missing").hint == nil, "no key said missing")
        #expect(
            try anchor(files, "App/Info.plist", line: 2, message: "NSCameraUsageDescription is empty").line == 2, "a rule's own line stays")
    }

    @Test func aBinaryPlistHasNoLines() throws {
        let bytes = [UInt8](
            try PropertyListSerialization.data(fromPropertyList: ["NSCameraUsageDescription": ""], format: .binary, options: 0))
        let at = try anchor(["App/Info.plist": .bytes(bytes)], "App/Info.plist", message: "NSCameraUsageDescription is empty")
        #expect(at.line == nil && at.path == "App/Info.plist")
    }

    @Test func aKeyTheRuleNamesIsUsedAndAMissingOneSaysWhereToAddIt() throws {
        let plist =
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n  <dict>\n    <key>UISupportedInterfaceOrientations</key>\n  </dict>\n</plist>\n"
        let files: [String: ExampleFile] = ["App/Info.plist": .text(plist)]
        let found = try anchor(
            files, "App/Info.plist", message: "lacks UIInterfaceOrientationLandscapeLeft", key: "UISupportedInterfaceOrientations")
        #expect(found.line == 4 && found.column == 5 && found.hint == nil)
        let missing = try anchor(files, "App/Info.plist", message: "lacks a value", key: "UIRequiredDeviceCapabilities")
        #expect(missing.line == 3 && missing.column == 3)
        #expect(missing.hint == "add <key>UIRequiredDeviceCapabilities</key> to the top-level <dict> at line 3")
    }

    @Test func columnsCountUTF16CodeUnitsAfterAByteOrderMark() throws {
        let json = "\u{FEFF}{\n  \"name\" : \"é😀\", \"filename\" : \"x.png\"\n}\n"
        let bytes = Array(json.utf8)
        let at = try #require(TextIndex(bytes).firstPosition(containing: ["\"filename\""]))
        #expect(at.line == 2 && at.column == 19, "2 spaces, \"name\" : \"é😀\", : é is 1 unit, 😀 is 2")
        #expect(TextIndex(bytes).firstContent.line == 1 && TextIndex(bytes).firstContent.column == 1)
    }

    @Test func anImageInASetNamesTheEntryThatUsesIt() throws {
        let contents = "{\n  \"images\" : [\n    {\n      \"filename\" : \"a.png\",\n      \"idiom\" : \"universal\"\n    }\n  ]\n}\n"
        let files: [String: ExampleFile] = [
            Self.set + "/Contents.json": .text(contents), Self.set + "/a.png": .text(""), Self.set + "/b.png": .text(""),
        ]
        let used = try anchor(files, Self.set + "/a.png")
        #expect(used.line == nil && used.relatedLocations.count == 1)
        #expect(used.relatedLocations.first?.line == 4 && used.relatedLocations.first?.column == 20)
        let unused = try anchor(files, Self.set + "/b.png")
        #expect(unused.relatedLocations.first?.line == 2, "no entry names it: the list where one would go")
    }
}
