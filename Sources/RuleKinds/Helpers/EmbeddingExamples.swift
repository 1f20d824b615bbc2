import RuleKit

/// Example projects whose targets embed one another the way Xcode writes it (a Copy Files phase
/// per embedding target, copying the other target's `productReference`): two apps of one project
/// (Prod and Dev) that each embed their own extension, watch app and App Clip. For the kinds
/// that judge a bundle against the app that ships it (`bundle.*`, `watch.companion-id`,
/// `appclip.parent-entitlement`) and for the App Clip judged as an app of its own.
enum EmbeddingExamples {
    struct Target {
        let name: String
        let productType: String
        let settings: String
        var embeds: [String] = []
    }

    /// A project.pbxproj of `targets`, each with one Release configuration.
    static func project(_ targets: [Target]) -> ExampleFile {
        let index = Dictionary(targets.enumerated().map { ($0.element.name, $0.offset) }) { a, _ in a }
        var objects: [String] = [
            "P1 = {isa = PBXProject; buildConfigurationList = L0; targets = (\(targets.indices.map { "T\($0)" }.joined(separator: ", "))); };",
            "L0 = {isa = XCConfigurationList; buildConfigurations = (C0); };",
            "C0 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; MARKETING_VERSION = 1.0; CURRENT_PROJECT_VERSION = 1; }; };",
        ]
        for (i, t) in targets.enumerated() {
            let n = i + 1
            let phases = t.embeds.isEmpty ? "" : "buildPhases = (E\(n)); "
            objects.append(
                "T\(i) = {isa = PBXNativeTarget; name = \"\(t.name)\"; productType = \"\(t.productType)\"; buildConfigurationList = L\(n); \(phases)productReference = R\(n); };"
            )
            objects.append("L\(n) = {isa = XCConfigurationList; buildConfigurations = (C\(n)); };")
            objects.append("C\(n) = {isa = XCBuildConfiguration; name = Release; buildSettings = { \(t.settings) }; };")
            objects.append("R\(n) = {isa = PBXFileReference; path = \"\(t.name).product\"; sourceTree = BUILT_PRODUCTS_DIR; };")
            guard !t.embeds.isEmpty else { continue }
            let files = t.embeds.compactMap { index[$0] }.map { "F\(n)x\($0 + 1)" }
            objects.append("E\(n) = {isa = PBXCopyFilesBuildPhase; dstSubfolderSpec = 13; files = (\(files.joined(separator: ", "))); };")
            for embedded in t.embeds.compactMap({ index[$0] }) {
                objects.append("F\(n)x\(embedded + 1) = {isa = PBXBuildFile; fileRef = R\(embedded + 1); };")
            }
        }
        return .text(
            "// !$*UTF8*$!\n{\n\tobjects = {\n" + objects.map { "\t\t" + $0 }.joined(separator: "\n") + "\n\t};\n\trootObject = P1;\n}\n")
    }

    static let app = "com.apple.product-type.application"
    static let appex = "com.apple.product-type.app-extension"
    static let clip = "com.apple.product-type.application.on-demand-install-capable"
    static let watchApp = "com.apple.product-type.application.watchapp2"
    static let watchExtension = "com.apple.product-type.watchkit2-extension"

    /// Two apps, Prod (com.example.app) and Dev (com.example.app.dev), each embedding its share
    /// extension `<App>Share`, its watch app `<App>Watch` (whose WatchKit extension embeds a
    /// widget) and its App Clip `<App>Clip`. `ids` overrides a target's PRODUCT_BUNDLE_IDENTIFIER;
    /// `extra` adds settings to a target.
    static func twoApps(ids: [String: String] = [:], extra: [String: String] = [:]) -> [String: ExampleFile] {
        var targets: [Target] = []
        var files: [String: ExampleFile] = [:]
        for (app, appID) in [("Prod", "com.example.app"), ("Dev", "com.example.app.dev")] {
            let parts: [(String, String, String)] = [
                (app, Self.app, appID), ("\(app)Share", appex, "\(appID).share"), ("\(app)Clip", clip, "\(appID).Clip"),
                ("\(app)Watch", watchApp, "\(appID).watchkitapp"),
                ("\(app)WatchExtension", watchExtension, "\(appID).watchkitapp.watchkitextension"),
                ("\(app)WatchWidget", appex, "\(appID).watchkitapp.watchkitextension.widget"),
            ]
            for (name, type, id) in parts {
                let sdk = type == watchApp || type == watchExtension || name.hasSuffix("WatchWidget") ? "watchos" : "iphoneos"
                var settings = "INFOPLIST_FILE = \(name)/Info.plist; PRODUCT_BUNDLE_IDENTIFIER = \(ids[name] ?? id); SDKROOT = \(sdk);"
                if type == clip { settings += " CODE_SIGN_ENTITLEMENTS = \(name)/\(name).entitlements;" }
                if type == watchApp { settings += " ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon;" }
                settings += " " + (extra[name] ?? "")
                targets.append(Target(name: name, productType: type, settings: settings))
                let plist: String
                switch type {
                case appex: plist = ExamplePlistKeys.goodKeys + ExamplePlistKeys.extensionPoint
                case watchApp:
                    plist =
                        "<key>CFBundleName</key><string>\(name)</string><key>WKApplication</key><true/><key>WKCompanionAppBundleIdentifier</key><string>\(appID)</string>"
                    files["\(name)/Assets.xcassets/AppIcon.appiconset/Contents.json"] = .text(
                        "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"watchos\",\"size\":\"1024x1024\"}]}")
                case watchExtension:
                    plist = "<key>CFBundleName</key><string>\(name)</string><key>WKExtensionDelegateClassName</key><string>D</string>"
                default: plist = "<key>CFBundleName</key><string>\(name)</string>" + ExamplePlistKeys.versions
                }
                files["\(name)/Info.plist"] = ExampleTrees.plist(plist)
                if type == clip {
                    files["\(name)/\(name).entitlements"] = ExampleTrees.plist(
                        "<key>\(AppClipEntitlement.parentApplicationIdentifiers)</key><array><string>$(AppIdentifierPrefix)\(appID)</string></array>"
                    )
                }
            }
            let base = targets.count - parts.count
            targets[base].embeds = ["\(app)Share", "\(app)Clip", "\(app)Watch"]
            targets[base + 3].embeds = ["\(app)WatchExtension"]
            targets[base + 4].embeds = ["\(app)WatchWidget"]
        }
        files["App.xcodeproj/project.pbxproj"] = project(targets)
        return files
    }
}

/// The entitlement an App Clip names its full app in.
enum AppClipEntitlement {
    static let parentApplicationIdentifiers = "com.apple.developer.parent-application-identifiers"
}
