import RuleEngine

extension PrivacySourcesKind {
    /// A folder app (no Xcode project) with the given sources and, optionally, a manifest.
    static func app(_ sources: [String: String], manifest: String? = nil) -> [String: ExampleFile] {
        var files: [String: ExampleFile] = ["App/.reswatch.yaml": ExampleTrees.config()]
        for (name, text) in sources { files["App/Sources/" + name] = .text(text) }
        if let manifest { files["App/PrivacyInfo.xcprivacy"] = ExampleTrees.plist(manifest) }
        return files
    }

    static let declaresDefaults = PrivacyManifestKind.api("NSPrivacyAccessedAPICategoryUserDefaults", ["CA92.1"])

    public static let examples: [RuleExample] = [
        RuleExample(
            "an Xcode project whose app target lists no sources that can be read is said unchecked",
            files: [
                "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(appIcon: "AppIcon"),
                "App/Sources/Settings.swift": .text("let d = UserDefaults.standard\n"),
            ], triggers: ["project.not-checked"], passes: ["privacy.manifest-missing"]),
        RuleExample(
            "UserDefaults used and declared",
            files: app(["Settings.swift": "import Foundation\nlet d = UserDefaults.standard\n"], manifest: declaresDefaults),
            passes: rules.map(\.id)),
        RuleExample(
            "the APIs named only in comments and strings, a model's own creationDate, Swift's stat() struct",
            files: app([
                "Notes.swift":
                    "// UserDefaults is not used here\n/* systemUptime /* nested */ stat( */\nlet s = \"UserDefaults\"\nstruct Post { let creationDate: Date }\nlet x = post.creationDate\nvar st = stat()\n"
            ]), passes: rules.map(\.id)),
        RuleExample(
            "UserDefaults used and no manifest", files: app(["Settings.swift": "let d = UserDefaults.standard\n"]),
            triggers: ["privacy.manifest-missing"]),
        RuleExample(
            "a folder of C sources beside the app's project, with no Info.plist and no .reswatch.yaml, is no app",
            files: [
                "engine/d_main.c": .text("#include <sys/stat.h>\nstruct stat st;\nint r = stat(path, &st);\n"),
                "engine/Assets.xcassets/Logo.imageset/Contents.json": .text(
                    "{\"images\":[],\"info\":{\"version\":1,\"author\":\"xcode\"}}"),
            ], passes: rules.map(\.id)),
        RuleExample(
            "a file attribute read by its key",
            files: app(["Files.swift": "let a = try FileManager.default.attributesOfItem(atPath: p)\nlet d = a[.creationDate] as? Date\n"]),
            triggers: ["privacy.manifest-missing"]),
        RuleExample(
            "stat called on a path", files: app(["Disk.c": "#include <sys/stat.h>\nstruct stat st;\nint r = stat(path, &st);\n"]),
            triggers: ["privacy.manifest-missing"]),
        RuleExample(
            "a boot-time API the manifest does not declare",
            files: app(
                [
                    "Timer.m": "#import <mach/mach_time.h>\nuint64_t t = mach_absolute_time();\n",
                    "Settings.swift": "UserDefaults.standard\n",
                ],
                manifest: declaresDefaults), triggers: ["privacy.api-undeclared"], passes: ["privacy.manifest-missing"]),
    ]
}
