import RuleKit

extension PrivacySourcesKind {
    /// A folder app (no Xcode project) with the given sources and, optionally, a manifest.
    static func app(_ sources: [String: String], manifest: String? = nil) -> [String: ExampleFile] {
        var files: [String: ExampleFile] = ["App/.reswatch.yaml": ExampleTrees.config()]
        for (name, text) in sources { files["App/Sources/" + name] = .text(text) }
        if let manifest { files["App/PrivacyInfo.xcprivacy"] = ExampleTrees.plist(manifest) }
        return files
    }

    static let declaresDefaults = PrivacyManifestKind.api("NSPrivacyAccessedAPICategoryUserDefaults", ["CA92.1"])

    /// An app and a widget sharing the synchronized folder `Shared/`, whose exception set leaves
    /// `Shared/Settings.swift` (the UserDefaults user) out of the widget; the app has a manifest.
    static let sharedFolder: [String: ExampleFile] = [
        "App.xcodeproj/project.pbxproj": .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = LP; mainGroup = G0; targets = (T1, T2); };
            		G0 = {isa = PBXGroup; children = (S1, S2, S3); sourceTree = "<group>"; };
            		S1 = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = "<group>"; };
            		S2 = {isa = PBXFileSystemSynchronizedRootGroup; path = Widget; sourceTree = "<group>"; };
            		S3 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (E1); path = Shared; sourceTree = "<group>"; };
            		E1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Settings.swift, ); target = T2; };
            		LP = {isa = XCConfigurationList; buildConfigurations = (CP); };
            		CP = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L1; fileSystemSynchronizedGroups = (S1, S3); };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; }; };
            		T2 = {isa = PBXNativeTarget; name = Widget; productType = "com.apple.product-type.app-extension"; buildConfigurationList = L2; fileSystemSynchronizedGroups = (S2, S3); };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = Widget/Info.plist; }; };
            	};
            	rootObject = P1;
            }
            """),
        "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
        "App/PrivacyInfo.xcprivacy": ExampleTrees.plist(declaresDefaults),
        "Widget/Info.plist": ExampleTrees.plist(
            "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>"),
        "Widget/Widget.swift": .text("struct W {}\n"),
        "Shared/Settings.swift": .text("let d = UserDefaults.standard\n"),
        "Shared/Model.swift": .text("struct M {}\n"),
    ]

    /// An app linking the tree's package `Packages/Store` (Xcode 15's local package reference),
    /// whose library reads UserDefaults; `manifest` adds one to the package's target.
    static func localPackage(manifest: Bool) -> [String: ExampleFile] {
        var files: [String: ExampleFile] = [
            "App.xcodeproj/project.pbxproj": .text(
                """
                // !$*UTF8*$!
                {
                	objects = {
                		P1 = {isa = PBXProject; buildConfigurationList = LP; mainGroup = G0; packageReferences = (K1); targets = (T1); };
                		G0 = {isa = PBXGroup; children = (S1); sourceTree = "<group>"; };
                		S1 = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = "<group>"; };
                		K1 = {isa = XCLocalSwiftPackageReference; relativePath = Packages/Store; };
                		D1 = {isa = XCSwiftPackageProductDependency; package = K1; productName = Store; };
                		LP = {isa = XCConfigurationList; buildConfigurations = (CP); };
                		CP = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
                		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L1; fileSystemSynchronizedGroups = (S1); packageProductDependencies = (D1); };
                		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
                		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; INFOPLIST_FILE = App/Info.plist; }; };
                	};
                	rootObject = P1;
                }
                """),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
            "App/App.swift": .text("struct A {}\n"),
            "Packages/Store/Package.swift": .text("// swift-tools-version:5.9\n"),
            "Packages/Store/Sources/Store/Store.swift": .text("let d = UserDefaults.standard\n"),
            "Packages/Store/Tests/StoreTests/T.swift": .text("let up = ProcessInfo.processInfo.systemUptime\n"),
        ]
        if manifest { files["Packages/Store/Sources/Store/PrivacyInfo.xcprivacy"] = ExampleTrees.plist(declaresDefaults) }
        return files
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "the tree's Swift package the app links reads UserDefaults, and neither declares it: its code is in the app's binary",
            files: localPackage(manifest: false), triggers: ["privacy.manifest-missing"]),
        RuleExample(
            "the linked package declares its use in its own manifest (its tests are not linked)", files: localPackage(manifest: true),
            passes: rules.map(\.id)),
        RuleExample(
            "a shared synchronized folder whose exception set leaves the API's file out of the widget: only the app compiles it",
            files: sharedFolder, passes: rules.map(\.id)),
        RuleExample(
            "the same file compiled by the widget too (no exception set): the widget has no manifest",
            files: sharedFolder.merging(
                [
                    "App.xcodeproj/project.pbxproj": .text(
                        {
                            guard case .text(let t) = sharedFolder["App.xcodeproj/project.pbxproj"]! else { return "" }
                            return t.replacingOccurrences(of: "exceptions = (E1); ", with: "")
                        }())
                ]
            ) { _, new in new }, triggers: ["privacy.manifest-missing"]),
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
