import Flows
import Foundation
import ImageFacts
import RuleEngine
import TestSupport
import Testing

/// A folder with nothing reswatch knows how to judge is not a pass (issue 26): a CI job pointed at
/// the wrong folder must not stay green. `check` exits 2 and says what it looked for and found;
/// `--allow-empty` accepts it, as linters accept an empty file set.
@Suite struct NothingToCheckTests {
    static func check(_ paths: [String], _ configure: (inout CheckOptions) -> Void = { _ in }) -> CommandResult {
        checkInProcess(paths, configure)
    }

    @Test func swiftSourcesUnrelatedTextAndAnEmptyFolderExitTwoWithAReason() throws {
        let tree = try TempTree([
            "Sources/App/main.swift": .text("print(\"hello\")\n"), "Sources/App/Model.swift": .text("struct Model {}\n"),
            "notes/README.md": .text("# notes\n"), "notes/data.json": .text("{\"a\": 1}\n"),
            "notes/photo.png": .png(PNGSpec(width: 8, height: 8)),
            "empty": .directory,
        ])
        let sources = Self.check([tree.path + "/Sources"])
        #expect(sources.status == 2, "\(sources.stdout)\(sources.stderr)")
        #expect(sources.stderr.contains("nothing to check in \(tree.path)/Sources: it holds 2 files, among them 2 source files"))
        #expect(sources.stderr.contains("an Xcode project (.xcodeproj)") && sources.stderr.contains("an asset catalog (.xcassets)"))
        let notes = Self.check([tree.path + "/notes"])
        #expect(notes.status == 2 && notes.stderr.contains("it holds 3 files, among them 1 PNG no Info.plist names"), "\(notes.stderr)")
        let empty = Self.check([tree.path + "/empty"])
        #expect(empty.status == 2 && empty.stderr.contains("it holds 0 files"), "\(empty.stderr)")
        #expect(empty.stderr.contains("--allow-empty accepts it"))
        let allowed = Self.check([tree.path + "/empty"]) { $0.allowEmpty = true }
        #expect(allowed.status == 0 && allowed.stderr.contains("note: nothing to check"), "\(allowed.stderr)")
        // JSON output is still a report; the exit status and stderr say nothing was checked.
        let json = Self.check([tree.path + "/Sources"]) { $0.outputs = [OutputPlan.Output(format: "json", file: nil)] }
        #expect(json.status == 2 && (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil)
    }

    @Test func oneEmptyPathAmongOthersIsSaidAndFailsTheRun() throws {
        let tree = try TempTree([
            "ios/App/Info.plist": .text(ExampleTreesPlist.minimal),
            "android/build.gradle": .text("apply plugin: 'com.android.application'\n"),
        ])
        let both = Self.check([tree.path + "/ios", tree.path + "/android"])
        #expect(both.status == 2 && both.stderr.contains("nothing to check in \(tree.path)/android"), "\(both.stderr)")
        #expect(!both.stderr.contains("nothing to check in \(tree.path)/ios"))
        let ios = Self.check([tree.path + "/ios"])
        #expect(ios.status == 0 || ios.status == 1, "\(ios.stderr)")
        #expect(!ios.stderr.contains("nothing to check"))
    }

    /// Each thing reswatch judges, alone, is something to check.
    @Test(arguments: [
        "App.xcodeproj/project.pbxproj", "project.yml", ".reswatch.yaml", "Assets.xcassets/Contents.json", "Info.plist",
        "Base.lproj/LaunchScreen.storyboard", "en.lproj/Localizable.strings", "Settings.bundle/Root.plist", "Icon-60@2x.png",
        "AppIcon.icon/icon.json", "PrivacyInfo.xcprivacy",
    ])
    func eachKindOfResourceIsSomethingToCheck(_ file: String) throws {
        let tree = try TempTree([file: .text("{}\n")])
        let result = Self.check([tree.path])
        #expect(!result.stderr.contains("nothing to check"), "\(file): \(result.stderr)")
        #expect(result.status != 2 || result.stderr.contains("config.invalid"), "\(file): \(result.status) \(result.stderr)")
    }
}

enum ExampleTreesPlist {
    static let minimal = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>CFBundleName</key>
          <string>App</string>
        </dict>
        </plist>
        """
}
