import Findings
import Foundation
import ImageFacts
import RuleEngine
import TestSupport
import Testing

@testable import LanguageServer
@testable import Repair

/// Each quick fix applied to a real file gives the file a user would write by hand, and is not
/// offered where the repair is not mechanical.
@Suite struct CodeActionTests {
    func apply(_ action: CodeActions.Action) throws -> String {
        let edit = try #require(action.edits.first)
        #expect(action.edits.count == 1 && action.edits.allSatisfy { $0.path == edit.path })
        var bytes = try #require(CodeActions.read(edit.path))
        bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.newText.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A finding as the daemon sends it, on `path` under the tree.
    func finding(_ rule: String, _ tree: TempTree, _ path: String, line: Int? = nil, message: String = "") -> Diagnostic {
        Diagnostic(rule: rule, severity: .warning, root: tree.path, project: "", path: path, line: line, message: message)
    }

    static let contents = """
        {
          "images" : [
            {
              "filename" : "a.png",
              "idiom" : "iphone",
              "scale" : "2x",
              "size" : "60x60"
            },
            {
              "idiom" : "iphone",
              "scale" : "3x",
              "size" : "60x60"
            },
            {
              "filename" : "b.png",
              "idiom" : "watch",
              "scale" : "9x",
              "size" : "1x1"
            }
          ],
          "info" : { "author" : "xcode", "version" : 1 }
        }

        """

    @Test func removeAnEntryThatMapsToNoSlot() throws {
        let tree = try TempTree(["S.appiconset/Contents.json": .text(Self.contents)])
        let path = tree.path + "/S.appiconset/Contents.json"
        for (line, kept) in [(14, ["a.png", nil]), (3, [nil, "b.png"]), (9, ["a.png", "b.png"])] as [(Int, [String?])] {
            let action = try #require(CodeActions.removeEntry(contents: path, line: line))
            let fixed = try apply(action)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(fixed.utf8)) as? [String: Any], "valid JSON: \(fixed)")
            let images = try #require(json["images"] as? [[String: Any]])
            #expect(images.map { $0["filename"] as? String } == kept, "line \(line)")
            #expect(json["info"] != nil)
        }
        #expect(CodeActions.removeEntry(contents: path, line: 1) == nil, "no entry starts on line 1")
    }

    @Test func assignAFileToTheOneEntryOfItsSize() throws {
        let tree = try TempTree([
            "S.appiconset/Contents.json": .text(Self.contents),
            "S.appiconset/new.png": .png(PNGSpec(width: 180, height: 180)),
            "S.appiconset/odd.png": .png(PNGSpec(width: 100, height: 100)),
        ])
        let actions = CodeActions.actions(
            for: finding("icon.unassigned", tree, "S.appiconset/new.png", message: "new.png is in S.appiconset …"))
        let action = try #require(actions.first)
        #expect(action.title == "Assign new.png to the iphone 60x60 @3x slot in Contents.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try apply(action).utf8)) as? [String: Any])
        let images = try #require(json["images"] as? [[String: Any]])
        #expect(images.map { $0["filename"] as? String } == ["a.png", "new.png", "b.png"])
        #expect(CodeActions.actions(for: finding("icon.unassigned", tree, "S.appiconset/odd.png")).isEmpty)
    }

    @Test func stripTheStoryboardExtension() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>UILaunchStoryboardName</key>
            \t<string>Launch Screen.storyboard</string>
            \t<key>UILaunchStoryboardName~ipad</key>
            \t<string>LaunchPad</string>
            </dict>
            </plist>

            """
        let tree = try TempTree(["Info.plist": .text(plist)])
        let actions = CodeActions.actions(for: finding("launch.storyboard-missing", tree, "Info.plist"))
        #expect(actions.count == 1, "one action")
        #expect(
            actions.first?.title == "Write UILaunchStoryboardName as \"Launch Screen\" without the extension",
            "only the value with an extension")
        let fixed = try apply(try #require(actions.first))
        #expect(fixed == plist.replacingOccurrences(of: "Launch Screen.storyboard", with: "Launch Screen"))
        let value = try PropertyListSerialization.propertyList(from: Data(fixed.utf8), format: nil) as? [String: Any]
        #expect(value?["UILaunchStoryboardName"] as? String == "Launch Screen")
    }

    /// A repair that needs the project's targets (which an editor's plan has not) is the daemon's:
    /// offered as the `reswatch.fix` command, never as a guessed edit.
    @Test func aRepairThatNeedsTheProjectIsTheDaemonsCommand() throws {
        let tree = try TempTree(["Share/Info.plist": .text("<plist><dict/></plist>")])
        let actions = CodeActions.actions(
            for: finding(
                "plist.extension-version", tree, "Share/Info.plist", message: "Share: CFBundleVersion is \"1\"; the app's is \"7\""))
        #expect(actions.count == 1 && actions.first?.edits.isEmpty == true)
        #expect(actions.first?.fix?.rule == "plist.extension-version" && actions.first?.fix?.path == tree.path + "/Share/Info.plist")
    }

    @Test func notOfferedWithoutAMechanicalRepair() throws {
        let tree = try TempTree(["S.appiconset/Contents.json": .text("{ \"images\": [ { \"size\": ")])
        #expect(CodeActions.removeEntry(contents: tree.path + "/S.appiconset/Contents.json", line: 1) == nil, "broken JSON: no edit")
        #expect(CodeActions.actions(for: finding("icon.size-mismatch", tree, "S.appiconset/Contents.json", line: 1)).isEmpty)
    }

    @Test func slotSizes() {
        #expect(UnassignedFileRepair.pixels(size: "83.5x83.5", scale: "2x")! == (167, 167))
        #expect(UnassignedFileRepair.pixels(size: "1e300x1", scale: "2x") == nil, "a hostile size is no slot, not a trap")
        #expect(
            UnassignedFileRepair.pixels(size: "nanx1", scale: "2x") == nil && UnassignedFileRepair.pixels(size: "60x60", scale: "x") == nil)
    }

    @Test func positionsCountUTF16() {
        let bytes = Array("ab\nç😀x".utf8)
        #expect(TextPosition.position(of: 3, in: bytes) == (1, 0))
        #expect(TextPosition.position(of: bytes.count - 1, in: bytes) == (1, 3), "ç is one unit, 😀 two")
    }

    @Test func uris() {
        let path = "/tmp/My App/Ré#1%.png"
        let uri = DocumentURI.from(path: path)
        #expect(uri == "file:///tmp/My%20App/R%C3%A9%231%25.png")
        #expect(DocumentURI.path(of: uri) == path)
        #expect(DocumentURI.path(of: "file://localhost/a/b/") == "/a/b")
        #expect(DocumentURI.path(of: "https://x/y") == nil && DocumentURI.path(of: "file:///a%2") == nil)
        #expect(DocumentURI.path(of: "file:///a%00b") == nil, "no NUL in a path")
    }

    /// The repairs of `reswatch fix` are code actions too: CFBundleIconName added to an Info.plist,
    /// as the one edit that keeps every other byte.
    @Test func theIconNameIsAddedAsOneEdit() throws {
        let plist =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>CFBundleName</key>\n  <string>App</string>\n</dict>\n</plist>\n"
        let tree = try TempTree(["Info.plist": .text(plist)])
        let actions = CodeActions.actions(
            for: finding(
                "plist.icon-name-missing", tree, "Info.plist",
                message: "icons come from Brand.appiconset, but Info.plist has no CFBundleIconName"))
        let action = try #require(actions.first)
        #expect(action.title == "Add CFBundleIconName = Brand to Info.plist")
        let edit = try #require(action.edits.first)
        #expect(edit.start == edit.end && edit.newText == "  <key>CFBundleIconName</key>\n  <string>Brand</string>\n")
        #expect(try apply(action) == plist.replacingOccurrences(of: "<dict>\n", with: "<dict>\n" + edit.newText))
    }

    /// An image repair (a PNG made again at its size) is no text edit: offering one would write
    /// binary bytes through the editor and corrupt the icon. It is the `reswatch.fix` command,
    /// for that finding, which the daemon carries out.
    @Test func anImageRepairIsACommandNotATextEdit() throws {
        let set = "S.appiconset"
        let tree = try TempTree([
            set + "/Contents.json": .text(
                "{\"images\":[{\"filename\":\"a.png\",\"idiom\":\"iphone\",\"scale\":\"2x\",\"size\":\"60x60\"},{\"filename\":\"m.png\",\"idiom\":\"ios-marketing\",\"scale\":\"1x\",\"size\":\"1024x1024\"}]}"
            ),
            set + "/a.png": .png(PNGSpec(width: 121, height: 120)), set + "/m.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        let mismatch = finding("icon.size-mismatch", tree, set + "/a.png", message: "a.png is 121x120 but should be 120x120 (iphone 60@2x)")
        let action = try #require(CodeActions.actions(for: mismatch).first)
        #expect(action.edits.isEmpty)
        #expect(action.fix == CodeActions.FixTarget(path: tree.path + "/" + set + "/a.png", rule: "icon.size-mismatch", line: nil))
        let lsp = CodeActions.lsp(action, diagnostic: nil)
        #expect(lsp["edit"] == nil && lsp["command"]?["command"]?.string == "reswatch.fix")
        #expect(lsp["command"]?["arguments"]?.array?.first?["rule"]?.string == "icon.size-mismatch")
    }
}
