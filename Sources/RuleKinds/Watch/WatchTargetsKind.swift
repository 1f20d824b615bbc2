import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `watch.plist-keys`, `watch.companion-id`, `watch.icon-missing`, `watch.arm64`: the watch app a
/// project ships, judged whole with its build settings in the configuration that ships and the
/// watchOS SDK's conditions (requirements-2026.md 1.8, 3.6–3.8).
package struct WatchTargetsKind: RuleKind {
    package static let name = "watch-targets"
    package static let summary =
        "Checks each watch app: no iOS keys in its Info.plist, its companion's bundle identifier, an app icon, and the arm64 architecture watchOS uploads need."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let plistKeys = RuleInfo(
        id: "watch.plist-keys", severity: .error,
        summary:
            "A watch app's Info.plist has iOS keys: LSRequiresIPhoneOS, UIDeviceFamily with 1 or 2, or an iOS MinimumOSVersion (12 to 25).",
        rationale:
            "App Store Connect: \"Invalid UIDeviceFamily. The Info.plist of Apple Watch application … contains an invalid UIDeviceFamily value of '1'\", \"The value '16.6' for the MinimumOSVersion key … is not supported\", \"The key 'LSRequiresIPhoneOS' …\" (requirements-2026.md 3.6: shared configurations and Flutter copy them in).",
        fix: "Remove the key from the watch app's Info.plist; Xcode writes UIDeviceFamily and MinimumOSVersion for watchOS itself.")
    package static let companionID = RuleInfo(
        id: "watch.companion-id", severity: .error,
        summary: "A watch app's WKCompanionAppBundleIdentifier is not the iOS app's resolved bundle identifier.",
        rationale:
            "Install and upload fail with \"InvalidCompanionAppBundleIdentifier … set the WKCompanionAppBundleIdentifier key in the Watch app's Info.plist to the companion app's bundle identifier\"; $(PRODUCT_BUNDLE_IDENTIFIER) there is the watch app's own (requirements-2026.md 3.7).",
        fix: "Set WKCompanionAppBundleIdentifier (INFOPLIST_KEY_WKCompanionAppBundleIdentifier) to the iOS app's identifier.")
    package static let iconMissing = RuleInfo(
        id: "watch.icon-missing", severity: .error,
        summary: "A watch app target with no app icon: no ASSETCATALOG_COMPILER_APPICON_NAME, or an icon set with no watchOS icon.",
        rationale:
            "App Store Connect refused uploads in 2026 because \"the embedded Watch app had no app icon or compiled icon metadata\" (ITMS-90391 \"Missing Icons\"; requirements-2026.md 3.8).",
        fix:
            "Add an app icon set with a watchOS 1024x1024 icon to the watch app's catalog and name it in ASSETCATALOG_COMPILER_APPICON_NAME."
    )
    package static let arm64 = RuleInfo(
        id: "watch.arm64", severity: .error, code: "ITMS-90733",
        summary: "A watchOS target whose ARCHS leaves out arm64, or whose EXCLUDED_ARCHS (for the watchOS SDK) names it.",
        rationale:
            "\"Beginning April 2026, watchOS apps uploaded to App Store Connect must include the arm64 architecture\"; without it the upload fails with ITMS-90733 \"Missing architecture\" (requirements-2026.md 1.8).",
        fix: "Remove ARCHS (Xcode's standard architectures include arm64) and arm64 from EXCLUDED_ARCHS[sdk=watchos*].")
    package static let rules = [plistKeys, companionID, iconMissing, arm64]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard subject.path == project.directory, project.noAppReason == nil, project.targetName != nil else { return }
        for target in project.otherTargets where target.platform == .watchOS {
            guard let settings = target.settings else { continue }
            checkArchitectures(target, settings, context)
            let isApp = target.productType == "com.apple.product-type.application" || target.productType.hasSuffix("watchapp2")
            guard isApp else { continue }
            checkIcon(target, settings, context)
            checkPlist(target, settings, context)
        }
    }

    func checkArchitectures(_ target: OtherTarget, _ settings: ResolvedBuildSettings, _ context: EvaluationContext) {
        guard !target.settingsIncomplete else { return }
        let words = { (name: String) in (settings.string(name) ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) }
        let archs = words("ARCHS")
        if settings.values["ARCHS"]?.origin != .xcodeDefault, !archs.isEmpty, !archs.contains(where: { $0.contains("$(") }),
            !archs.contains("arm64")
        {
            report(
                Self.arm64, setting: "ARCHS", settings, context,
                message:
                    "\(target.name): ARCHS is \(archs.joined(separator: " ")), without arm64, which watchOS uploads need from April 2026")
        }
        if words("EXCLUDED_ARCHS").contains("arm64") {
            report(
                Self.arm64, setting: "EXCLUDED_ARCHS", settings, context,
                message: "\(target.name): EXCLUDED_ARCHS leaves out arm64 for the watchOS SDK, which watchOS uploads need from April 2026")
        }
    }

    func checkIcon(_ target: OtherTarget, _ settings: ResolvedBuildSettings, _ context: EvaluationContext) {
        guard let name = target.appIconName, !name.isEmpty else {
            guard !target.settingsIncomplete else { return }
            report(
                Self.iconMissing, setting: "ASSETCATALOG_COMPILER_APPICON_NAME", settings, context,
                message: "\(target.name) (watch app) names no app icon (no ASSETCATALOG_COMPILER_APPICON_NAME)")
            return
        }
        if context.subjects(.iconComposer).contains(where: { RelativePath.name($0.path) == name + ".icon" }) { return }
        let sets = context.subjects(.assetSet).map(\.path).filter { RelativePath.name($0) == name + ".appiconset" }
        let owned = sets.filter { set in target.paths.contains { RelativePath.isWithin(set, $0) } }
        guard let set = (owned.isEmpty ? sets : owned).first else {
            // No such set in the tree (a catalog outside it, a partial checkout): said, not guessed.
            let (path, line) = SettingLine.place(of: "ASSETCATALOG_COMPILER_APPICON_NAME", in: settings, context: context)
            context.report(
                EngineRules.notChecked, path: path, line: line,
                message:
                    "\(target.name) (watch app) builds with the app icon \(name), and no \(name).appiconset or \(name).icon is in the tree: its icon was not checked"
            )
            return
        }
        // A Contents.json that does not parse is catalog.contents-invalid's to say.
        guard case .success(let contents)? = context.assetContents(RelativePath.join(set, "Contents.json")) else { return }
        let watch = contents.images.contains { image in
            image.platform == "watchos" || (image.idiom ?? "").hasPrefix("watch")
        }
        if !watch {
            context.report(
                Self.iconMissing, path: RelativePath.join(set, "Contents.json"),
                message: "\(target.name) (watch app) builds with \(name), which has no watchOS icon (only iOS entries)")
        }
    }

    func checkPlist(_ target: OtherTarget, _ settings: ResolvedBuildSettings, _ context: EvaluationContext) {
        let generated = target.generatedInfoPlist
        let path = target.infoPlistFile
        guard let dict = path.flatMap({ context.effectiveInfoPlist($0) }) ?? (generated.isEmpty ? nil : generated) else { return }
        let at = path ?? settings.values["GENERATE_INFOPLIST_FILE"]?.origin.file ?? context.project.directory
        if dict["LSRequiresIPhoneOS"] != nil {
            context.report(
                Self.plistKeys, path: at, key: "LSRequiresIPhoneOS",
                message: "\(target.name)'s Info.plist has LSRequiresIPhoneOS, an iOS key App Store Connect refuses in a watch app")
        }
        let families = (dict["UIDeviceFamily"]?.array ?? []).compactMap { $0.text }
        if families.contains("1") || families.contains("2") {
            context.report(
                Self.plistKeys, path: at, key: "UIDeviceFamily",
                message: "\(target.name)'s Info.plist has UIDeviceFamily \(families.joined(separator: ", ")): a watch app's is 4")
        }
        // Xcode writes UIDeviceFamily from TARGETED_DEVICE_FAMILY, keeping only the families the
        // SDK's platform has (swift-build, Sources/SWBCore/Apple/DeviceFamily.swift,
        // evaluateTargetedDeviceFamilyBuildSetting: none left, the platform's own): with the
        // watchOS SDK an inherited "1,2" becomes 4. A watch target built with the iOS SDK (its
        // SDKROOT an iOS project's) keeps 1 and 2, and App Store Connect refuses the app.
        let sdk = settings.string("SDKROOT")?.lowercased() ?? ""
        if families.isEmpty, !sdk.isEmpty, !sdk.contains("watch"), !sdk.contains("$"),
            let family = settings.values["TARGETED_DEVICE_FAMILY"], family.origin != .xcodeDefault,
            let value = settings.string("TARGETED_DEVICE_FAMILY"),
            value.split(whereSeparator: { $0 == "," || $0 == " " }).contains(where: { $0 == "1" || $0 == "2" })
        {
            report(
                Self.plistKeys, setting: "TARGETED_DEVICE_FAMILY", settings, context,
                message:
                    "\(target.name): built with SDKROOT \(sdk), TARGETED_DEVICE_FAMILY \(value) puts UIDeviceFamily \(value) in its Info.plist: a watch app's is 4 (set SDKROOT = watchos)"
            )
        }
        if let minimum = dict["MinimumOSVersion"]?.text, let version = OSVersion(minimum), (12..<26).contains(version.components[0]) {
            context.report(
                Self.plistKeys, path: at, key: "MinimumOSVersion",
                message: "\(target.name)'s Info.plist has MinimumOSVersion \(minimum), an iOS version: no watchOS has it")
        }
        guard let raw = dict["WKCompanionAppBundleIdentifier"]?.string, !raw.isEmpty, let (app, appID) = companion(of: target, context),
            !target.settingsIncomplete, let expanded = settings.expandingUndefinedAsEmpty(raw)?.value, !expanded.contains("$")
        else { return }
        if expanded != appID {
            let shown = expanded == raw ? raw : "\(raw) (\(expanded))"
            context.report(
                Self.companionID, path: at, key: "WKCompanionAppBundleIdentifier",
                message:
                    "\(target.name)'s WKCompanionAppBundleIdentifier is \(shown), not the identifier \(appID) of \(app), the iOS app it ships in"
            )
        }
    }

    /// The iOS app that ships the watch app (the one whose Embed Watch Content phase copies it;
    /// the context's app when the project does not say) and its resolved identifier; nil when it
    /// ships in none or its identifier is not known.
    func companion(of target: OtherTarget, _ context: EvaluationContext) -> (String, String)? {
        let project = context.project
        switch project.shippingApp(of: target) {
        case .app, .unknown:
            guard let app = project.targetName,
                let id = BundleIdentifier.of(project.appSettings, incomplete: project.buildSettingsIncomplete)
            else { return nil }
            return (app, id)
        case .target(let app):
            return BundleIdentifier.of(app.settings, incomplete: app.settingsIncomplete).map { (app.name, $0) }
        case .nowhere: return nil
        }
    }

    /// A finding about a build setting, at the line that sets it.
    func report(_ rule: RuleInfo, setting: String, _ settings: ResolvedBuildSettings, _ context: EvaluationContext, message: String) {
        let (path, line) = SettingLine.place(of: setting, in: settings, context: context)
        context.report(rule, path: path, line: line, message: message)
    }
}

extension WatchTargetsKind {
    /// An iOS app `App` (com.example.app) and its watch app `Watch` with `watchSettings` of its own.
    static func project(watchSettings: String, sdk: String = "watchos") -> ExampleFile {
        .text(
            """
            // !$*UTF8*$!
            {
            	objects = {
            		P1 = {isa = PBXProject; buildConfigurationList = L1; targets = (T1, T2); };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
            		C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { }; };
            		T1 = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2; };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
            		C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; PRODUCT_BUNDLE_IDENTIFIER = com.example.app; }; };
            		T2 = {isa = PBXNativeTarget; name = Watch; productType = "com.apple.product-type.application\(sdk == "watchos" ? "" : ".watchapp2")"; buildConfigurationList = L3; };
            		L3 = {isa = XCConfigurationList; buildConfigurations = (C3); };
            		C3 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = Watch/Info.plist; SDKROOT = \(sdk); PRODUCT_BUNDLE_IDENTIFIER = com.example.app.watchkitapp; \(watchSettings) }; };
            	};
            	rootObject = P1;
            }
            """)
    }

    static func watchApp(
        settings: String = "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;", plist: String = "", platform: String = "watchos",
        sdk: String = "watchos"
    )
        -> [String: ExampleFile]
    {
        [
            "App.xcodeproj/project.pbxproj": project(watchSettings: settings, sdk: sdk),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
            "Watch/Info.plist": ExampleTrees.plist(
                "<key>CFBundleName</key><string>Watch</string><key>WKApplication</key><true/><key>WKCompanionAppBundleIdentifier</key><string>com.example.app</string>"
                    + plist),
            "Watch/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"\(platform)\",\"size\":\"1024x1024\"}]}"),
        ]
    }

    package static let examples: [RuleExample] = [
        RuleExample("a watch app with its icon and its companion's identifier", files: watchApp(), passes: rules.map(\.id)),
        RuleExample(
            "the watch apps of two apps of one project, each naming the app that embeds it",
            files: EmbeddingExamples.twoApps(), passes: rules.map(\.id)),
        RuleExample(
            "the Dev app's watch app naming the Prod app as its companion",
            files: EmbeddingExamples.twoApps().merging([
                "DevWatch/Info.plist": ExampleTrees.plist(
                    "<key>CFBundleName</key><string>DevWatch</string><key>WKApplication</key><true/><key>WKCompanionAppBundleIdentifier</key><string>com.example.app</string>"
                )
            ]) { _, b in b }, triggers: ["watch.companion-id"]),
        RuleExample(
            "arm64 left out for the simulator only",
            files: watchApp(settings: "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; \"EXCLUDED_ARCHS[sdk=watchsimulator*]\" = arm64;"),
            passes: ["watch.arm64"]),
        RuleExample(
            "iOS keys copied into the watch app's Info.plist",
            files: watchApp(
                plist:
                    "<key>LSRequiresIPhoneOS</key><true/><key>UIDeviceFamily</key><array><integer>1</integer></array><key>MinimumOSVersion</key><string>16.6</string>"
            ), triggers: ["watch.plist-keys"]),
        RuleExample(
            "the companion named by the watch app's own identifier",
            files: watchApp().merging([
                "Watch/Info.plist": ExampleTrees.plist(
                    "<key>CFBundleName</key><string>Watch</string><key>WKCompanionAppBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>"
                )
            ]) { _, b in b }, triggers: ["watch.companion-id"]),
        RuleExample(
            "an iOS device family in a watch target built with the watchOS SDK (Xcode keeps only family 4)",
            files: watchApp(settings: "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; TARGETED_DEVICE_FAMILY = \"1,2\";"),
            passes: ["watch.plist-keys"]),
        RuleExample(
            "an iOS device family in a watch app target built with the iOS SDK",
            files: watchApp(settings: "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; TARGETED_DEVICE_FAMILY = \"1,2\";", sdk: "iphoneos"),
            triggers: ["watch.plist-keys"]),
        RuleExample("a watch app that names no icon", files: watchApp(settings: ""), triggers: ["watch.icon-missing"]),
        RuleExample(
            "a watch app whose icon set is not in the tree is said, not judged",
            files: watchApp(settings: "ASSETCATALOG_COMPILER_APPICON_NAME = Elsewhere;"), triggers: ["project.not-checked"],
            passes: ["watch.icon-missing"]),
        RuleExample("a watch app whose icon set has only iOS icons", files: watchApp(platform: "ios"), triggers: ["watch.icon-missing"]),
        RuleExample(
            "ARCHS without arm64, and arm64 excluded for the device SDK",
            files: watchApp(
                settings:
                    "ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon; ARCHS = \"arm64_32 armv7k\"; \"EXCLUDED_ARCHS[sdk=watchos*]\" = arm64;"),
            triggers: ["watch.arm64"]),
    ]
}
