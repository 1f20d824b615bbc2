import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `plist.scene-manifest-missing`, `plist.scene-config-invalid`: an app built with the iOS 27
/// SDK launches only if it adopts the UIScene life cycle, which UIKit decides from the bundle's
/// `UIApplicationSceneManifest` alone (TN3187; requirements-2026.md 1.3, VERIFIED). A SwiftUI
/// app (`@main` on an `App` type) manages its scenes itself and is exempt; an app whose sources
/// are not in the tree cannot be told apart and is said as not judged.
package struct SceneLifecycleKind: RuleKind {
    package static let name = "scene-lifecycle"
    package static let summary = "Checks that the app adopts the UIScene life cycle the iOS 27 SDK requires (TN3187)."
    package static let subjects: Set<SubjectKind> = [.infoPlist, .project]

    package static let manifestMissing = RuleInfo(
        id: "plist.scene-manifest-missing", severity: .warning,
        summary:
            "The app has no UIApplicationSceneManifest (nor INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES) and is no SwiftUI app: built with the iOS 27 SDK, required for uploads from April 2027, it does not launch.",
        rationale:
            "TN3187: UIKit decides adoption of the scene life cycle from the bundle's UIApplicationSceneManifest; apps built with the iOS 27 SDK that do not adopt it stop at launch (\"UIScene life cycle is required for apps built with this SDK\"; requirements-2026.md 1.3).",
        fix:
            "Adopt UIWindowSceneDelegate and add UIApplicationSceneManifest with a UIWindowSceneSessionRoleApplication configuration (TN3187), or set INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES for a generated Info.plist."
    )
    package static let configInvalid = RuleInfo(
        id: "plist.scene-config-invalid", severity: .error,
        summary:
            "A scene configuration of UIApplicationSceneManifest names a storyboard the app does not ship, or a delegate class none of its sources declares.",
        rationale:
            "UIKit instantiates the configuration's UISceneStoryboardFile and UISceneDelegateClassName when it creates the scene; a name that resolves to nothing leaves the window empty or stops the launch (TN3187).",
        fix: "Name the storyboard by its base name as the app ships it, and the delegate class as $(PRODUCT_MODULE_NAME).ClassName.")
    package static let rules = [manifestMissing, configInvalid]
    static let tag = "scene-declarations"

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        // An app whose Info.plist Xcode generates whole is judged on its project (AppInfoPlist).
        guard let app = AppInfoPlist.of(subject, in: context), app.dict["NSExtension"] == nil, app.dict["WKApplication"] == nil,
            app.dict["WKWatchKitApp"] == nil
        else { return }
        let dict = app.dict
        let sources = Self.appSources(context)
        guard let manifest = dict["UIApplicationSceneManifest"] else {
            // A generated Info.plist whose settings were not all read may generate one.
            guard !(context.project.infoPlistGenerated && context.project.buildSettingsIncomplete) else { return }
            guard !sources.isEmpty else {
                context.report(
                    EngineRules.notChecked, path: app.path, line: app.generatedOnly ? app.line : 1,
                    message:
                        "the app has no UIApplicationSceneManifest, and its sources are not in the tree: whether it is a SwiftUI app (exempt) cannot be told, so plist.scene-manifest-missing was not judged"
                )
                return
            }
            if sources.contains(where: { Self.declarations(of: $0, context).swiftUIApp }) { return }
            app.report(
                Self.manifestMissing, in: context,
                message:
                    "the app has no UIApplicationSceneManifest and is no SwiftUI app: built with the iOS 27 SDK (required for uploads from April 2027) it does not launch (TN3187)"
            )
            return
        }
        let configurations = manifest["UISceneConfigurations"]?.dictionary ?? [:]
        // A storyboard on disk, or one the project bundles (a partial checkout may lack the file).
        let bundled = context.project.ownedPaths.map { RelativePath.name($0) }.filter {
            $0.hasSuffix(".storyboard") || $0.hasSuffix(".xib") || $0.hasSuffix(".storyboardc")
        }
        let storyboards = Set(
            (context.subjects(.interfaceFile).map { RelativePath.name($0.path) } + bundled).map(BaseName.of))
        let classes = sources.isEmpty ? nil : Set(sources.flatMap { Self.declarations(of: $0, context).classes })
        for (role, list) in configurations.sorted(by: { $0.key < $1.key }) {
            for configuration in list.array ?? [] {
                let name = configuration["UISceneConfigurationName"]?.string.map { "\"\($0)\"" } ?? "of \(role)"
                if let storyboard = configuration["UISceneStoryboardFile"]?.string, !storyboard.isEmpty, !storyboard.contains("$("),
                    !storyboards.contains(storyboard), !storyboards.contains(BaseName.of(storyboard))
                {
                    app.report(
                        Self.configInvalid, in: context, key: "UIApplicationSceneManifest",
                        message: "the scene configuration \(name) names the storyboard \"\(storyboard)\", which the app does not have")
                }
                // Only a name qualified by the app's module is the app's own: an unqualified one may
                // come from a framework it links (Flutter's FlutterSceneDelegate).
                if let classes, let delegate = configuration["UISceneDelegateClassName"]?.string,
                    let bare = Self.ownClassName(delegate, module: context.project.targetName)
                {
                    if !classes.contains(bare) {
                        app.report(
                            Self.configInvalid, in: context, key: "UIApplicationSceneManifest",
                            message:
                                "the scene configuration \(name) names the delegate class \"\(delegate)\", which none of the app's sources declares"
                        )
                    }
                }
            }
        }
    }

    /// The class a delegate name qualified by the app's module names (`$(PRODUCT_MODULE_NAME).X`,
    /// `${PRODUCT_MODULE_NAME}.X`, `Target.X`), or nil for any other name.
    static func ownClassName(_ name: String, module: String?) -> String? {
        for prefix in ["$(PRODUCT_MODULE_NAME).", "${PRODUCT_MODULE_NAME}."] + (module.map { [$0 + "."] } ?? [])
        where name.hasPrefix(prefix) {
            let bare = String(name.dropFirst(prefix.count))
            return bare.isEmpty || bare.contains("$") || bare.contains(".") ? nil : bare
        }
        return nil
    }

    /// The app's own Swift and Objective-C sources: its target's when a project lists them,
    /// else (a folder without a project) the folder's, tests aside.
    static func appSources(_ context: EvaluationContext) -> [String] {
        let project = context.project
        let all = context.subjects(.source).map(\.path).filter { $0.hasSuffix(".swift") || $0.hasSuffix(".m") || $0.hasSuffix(".mm") }
        if project.targetName != nil {
            return project.appSources.isEmpty ? [] : PrivacySourcesKind.members(all, of: project.appSources)
        }
        return all.filter { !PrivacySourcesKind.isTest($0) }
    }

    struct Declarations: Sendable {
        var swiftUIApp = false
        var classes: [String] = []
    }

    static func declarations(of path: String, _ context: EvaluationContext) -> Declarations {
        context.derived(path, tag: tag) { bytes in
            guard case .success(let bytes) = bytes else { return Declarations() }
            return scan(String(decoding: bytes.prefix(1 << 20), as: UTF8.self))
        }
    }

    /// `@main struct X: App`, and the classes a file declares (`class X`, `@objc(X)`,
    /// `@interface X`, `@implementation X`), on words outside comments enough for a heuristic.
    /// The words of source text: runs of letters, digits and `_ @ : . ( )`, comments after `//`
    /// left out. Read as bytes (a byte that is not ASCII belongs to a word, as a letter of a
    /// name would): per `Character`, the scan of a large app's sources was a tenth of its check.
    static func words(of text: String) -> [Substring] {
        var words: [Substring] = []
        let bytes = text.utf8
        var start: String.Index?
        var inComment = false
        var i = bytes.startIndex
        func endWord(at end: String.Index) {
            if let s = start { words.append(text[s..<end]) }
            start = nil
        }
        while i != bytes.endIndex {
            let b = bytes[i]
            switch b {
            case 0x0A, 0x0B, 0x0C, 0x0D:
                endWord(at: i)
                inComment = false
            case _ where inComment:
                break
            case UInt8(ascii: "/") where bytes.index(after: i) != bytes.endIndex && bytes[bytes.index(after: i)] == UInt8(ascii: "/"):
                endWord(at: i)
                inComment = true
            case 0x80...0xFF, UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "_"), UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"):
                if start == nil { start = i }
            default:
                endWord(at: i)
            }
            bytes.formIndex(after: &i)
        }
        endWord(at: bytes.endIndex)
        return words
    }

    static func scan(_ text: String) -> Declarations {
        var out = Declarations()
        let words = words(of: text)
        for (i, word) in words.enumerated() {
            switch word {
            case "class", "@interface", "@implementation":
                if i + 1 < words.count {
                    let name = words[i + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !name.isEmpty { out.classes.append(String(name)) }
                }
            case "@main":
                // `@main struct Name: App {`, `: SwiftUI.App`, `Name:App` (maybe after other attributes).
                let next = words[(i + 1)..<min(i + 8, words.count)]
                if next.contains(where: { $0 == "App" || $0 == "SwiftUI.App" || $0.hasSuffix(":App") || $0.hasSuffix(":SwiftUI.App") }) {
                    out.swiftUIApp = true
                }
            default:
                if word.hasPrefix("@objc("), word.hasSuffix(")") { out.classes.append(String(word.dropFirst(6).dropLast())) }
            }
        }
        return out
    }

    package static let examples: [RuleExample] = {
        let project = ExampleTrees.pbxproj(
            buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;")
        let scene = { (storyboard: String, delegate: String) in
            "<key>UIApplicationSceneManifest</key><dict><key>UISceneConfigurations</key><dict><key>UIWindowSceneSessionRoleApplication</key><array><dict><key>UISceneConfigurationName</key><string>Default Configuration</string><key>UISceneDelegateClassName</key><string>\(delegate)</string><key>UISceneStoryboardFile</key><string>\(storyboard)</string></dict></array></dict></dict>"
        }
        let folderApp = { (plist: String, sources: [String: String]) -> [String: ExampleFile] in
            var files: [String: ExampleFile] = ["App/.reswatch.yaml": ExampleTrees.config(), "App/Info.plist": ExampleTrees.plist(plist)]
            for (name, text) in sources { files["App/Sources/" + name] = .text(text) }
            return files
        }
        let uikit = "import UIKit\n@main class AppDelegate: UIResponder, UIApplicationDelegate {}\n"
        return [
            RuleExample(
                "a UIKit app with a scene manifest whose delegate and storyboard exist",
                files: folderApp(
                    scene("Main", "$(PRODUCT_MODULE_NAME).SceneDelegate"),
                    ["AppDelegate.swift": uikit, "SceneDelegate.swift": "class SceneDelegate: UIResponder, UIWindowSceneDelegate {}\n"]
                ).merging(["App/Base.lproj/Main.storyboard": .text("<document/>")]) { a, _ in a }, passes: rules.map(\.id)),
            RuleExample(
                "a UIKit app without a scene manifest",
                files: folderApp("<key>CFBundleName</key><string>A</string>", ["AppDelegate.swift": uikit]),
                triggers: ["plist.scene-manifest-missing"]),
            RuleExample(
                "a SwiftUI app without a scene manifest is exempt",
                files: folderApp(
                    "<key>CFBundleName</key><string>A</string>",
                    [
                        "NotesApp.swift":
                            "import SwiftUI\n\n@main\nstruct NotesApp: App {\n    var body: some Scene { WindowGroup { Text(\"x\") } }\n}\n"
                    ]),
                passes: rules.map(\.id)),
            RuleExample(
                "a generated scene manifest (UIApplicationSceneManifest_Generation)",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES;"
                    ), "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>A</string>"),
                ], passes: ["plist.scene-manifest-missing"]),
            RuleExample(
                "an app whose Info.plist Xcode generates whole, with UIApplicationSceneManifest_Generation",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; INFOPLIST_KEY_UIApplicationSceneManifest_Generation = YES;"
                    )
                ], passes: rules.map(\.id)),
            RuleExample(
                "an app whose Info.plist Xcode generates whole, without a scene manifest, whose sources are not in the tree: said",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings: "SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; IPHONEOS_DEPLOYMENT_TARGET = 17.0; ")
                ],
                triggers: ["project.not-checked"], passes: ["plist.scene-manifest-missing"]),
            RuleExample(
                "an app whose sources are not in the tree is said, not judged",
                files: [
                    "App.xcodeproj/project.pbxproj": project,
                    "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>A</string>"),
                ],
                triggers: ["project.not-checked"], passes: ["plist.scene-manifest-missing"]),
            RuleExample(
                "an unqualified delegate class may come from a linked framework (Flutter's FlutterSceneDelegate): not judged",
                files: folderApp(
                    scene("", "FlutterSceneDelegate").replacingOccurrences(
                        of: "<key>UISceneStoryboardFile</key><string></string>", with: ""),
                    ["AppDelegate.swift": uikit]), passes: rules.map(\.id)),
            RuleExample(
                "a configuration naming a storyboard and a delegate class that do not exist",
                files: folderApp(scene("Main", "$(PRODUCT_MODULE_NAME).SceneDelegate"), ["AppDelegate.swift": uikit]),
                triggers: ["plist.scene-config-invalid"]),
        ]
    }()
}
