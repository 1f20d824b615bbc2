import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `plist.icon-keys-with-catalog`, `plist.icon-name-missing`: an app that takes its icons from an
/// asset catalog keeps Info.plist's icon keys consistent with that.
package struct IconPlistKeysKind: RuleKind {
    package static let name = "icon-plist-keys"
    package static let summary = "Checks Info.plist's icon keys in apps whose icons come from an asset catalog."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let keysWithCatalog = RuleInfo(
        id: "plist.icon-keys-with-catalog", severity: .warning,
        summary: "The app takes icons from an asset catalog but Info.plist still has CFBundleIconFile(s)/CFBundleIcons.",
        rationale:
            "QA1686, \"Invalid Image Path\": with asset catalogs the icon keys are added at build time; stale ones name files that are not in the bundle.",
        fix: "Remove CFBundleIconFile, CFBundleIconFiles and CFBundleIcons (and their ~ipad forms) from Info.plist.")
    package static let nameMissing = RuleInfo(
        id: "plist.icon-name-missing", severity: .warning, code: "ITMS-90713",
        summary:
            "Asset-catalog icons but no CFBundleIconName in a hand-written Info.plist (and no ASSETCATALOG_COMPILER_APPICON_NAME for actool to add it).",
        rationale:
            "App Store Connect: \"Missing Info.plist value … CFBundleIconName\" (ITMS-90713) when the key does not reach the built Info.plist.",
        fix: "Add <key>CFBundleIconName</key><string>AppIcon</string> (the .appiconset's name).")
    package static let rules = [keysWithCatalog, nameMissing]

    static let iconKeys = ["CFBundleIconFile", "CFBundleIconFiles", "CFBundleIcons", "CFBundleIconFiles~ipad", "CFBundleIcons~ipad"]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        guard context.project.infoPlist == subject.path, case .success(let (plist, _)) = context.plist(subject.path),
            let dict = plist.dictionary, dict["NSExtension"] == nil
        else { return }
        let setName = context.project.appIconName ?? "AppIcon"
        // Xcode 26: an Icon Composer icon the target compiles is an asset-catalog icon too.
        let iconBundle = IconBundles.compiled(named: setName, in: context)
        let usesCatalog =
            iconBundle != nil || context.subjects(.assetSet).contains { RelativePath.name($0.path) == setName + ".appiconset" }
        guard usesCatalog else { return }
        // A key whose every name is an app icon of the project (a set or an Icon Composer icon) is
        // not stale: that is how alternate icons are declared (CFBundleIcons →
        // CFBundleAlternateIcons → "AppIcon-Dark", by CFBundleIconFiles or CFBundleIconName), and
        // actool completes it. A key naming loose files (or nothing) is stale.
        let sets = Set(
            context.subjects(.assetSet).map(\.path).filter { $0.hasSuffix(".appiconset") }.map {
                String(RelativePath.name($0).dropLast(".appiconset".count))
            }
        ).union(IconBundles.compiledNames(in: context))
        let names = LegacyIconNames.iconNames(dict) + Self.catalogIconNames(dict)
        // Alternate icons may be loose files (CFBundleAlternateIcons → CFBundleIconFiles): an app
        // ships them so without a catalog, and removing CFBundleIcons would lose them. Only the
        // primary icon's names make CFBundleIcons stale.
        let stale = Self.iconKeys.filter { key in
            guard let value = dict[key] else { return false }
            let named = names.filter { $0.0 == key }.map(\.1)
            if named.isEmpty, value["CFBundleAlternateIcons"] != nil { return false }
            return named.isEmpty || !named.allSatisfy { sets.contains($0.hasSuffix(".png") ? String($0.dropLast(4)) : $0) }
        }
        let source = iconBundle.map { RelativePath.name($0) } ?? "\(setName).appiconset"
        if !stale.isEmpty {
            let keep =
                stale.contains(where: { dict[$0]?["CFBundleAlternateIcons"] != nil })
                ? " (keep CFBundleAlternateIcons: only CFBundlePrimaryIcon's file list is stale)" : ""
            context.report(
                Self.keysWithCatalog, path: subject.path,
                message: "icons come from \(source), but Info.plist still has \(stale.joined(separator: ", "))\(keep)")
        }
        // With ASSETCATALOG_COMPILER_APPICON_NAME set, actool writes CFBundleIconName into the built
        // Info.plist itself; only a plist that nothing completes must carry it.
        // actool writes CFBundleIconName for an Icon Composer icon it compiles.
        if dict["CFBundleIconName"] == nil, iconBundle == nil, !context.project.infoPlistGenerated,
            context.project.sources["app-icon"] != .pbxproj
        {
            if context.project.buildSettingsIncomplete {
                // An .xcconfig may set ASSETCATALOG_COMPILER_APPICON_NAME (then actool adds the key):
                // whether the built Info.plist has it cannot be known here.
                context.report(
                    Self.nameMissing, severity: .info, path: subject.path,
                    message:
                        "icons come from \(setName).appiconset and Info.plist has no CFBundleIconName; actool adds it only if ASSETCATALOG_COMPILER_APPICON_NAME is set, which the project's .xcconfig files may do (not read)"
                )
            } else {
                context.report(
                    Self.nameMissing, path: subject.path,
                    message: "icons come from \(source), but Info.plist has no CFBundleIconName")
            }
        }
    }

    /// The asset-catalog names `CFBundleIcons` gives by `CFBundleIconName` (the primary icon's and
    /// each alternate's), keyed like `LegacyIconNames.iconNames`.
    static func catalogIconNames(_ plist: [String: PlistValue]) -> [(String, String)] {
        var out: [(String, String)] = []
        for key in ["CFBundleIcons", "CFBundleIcons~ipad"] {
            guard let icons = plist[key] else { continue }
            if let name = icons["CFBundlePrimaryIcon"]?["CFBundleIconName"]?.string { out.append((key, name)) }
            for (_, alternate) in icons["CFBundleAlternateIcons"]?.dictionary ?? [:] {
                if let name = alternate["CFBundleIconName"]?.string { out.append((key + ".CFBundleAlternateIcons", name)) }
            }
        }
        return out
    }

    package static let examples: [RuleExample] = {
        var good = ExampleTrees.singleSize()
        good["App/Info.plist"] = ExampleTrees.plist("<key>CFBundleIconName</key><string>AppIcon</string>")
        var stale = ExampleTrees.singleSize()
        stale["App/Info.plist"] = ExampleTrees.plist(
            "<key>CFBundleIconName</key><string>AppIcon</string><key>CFBundleIconFiles</key><array><string>Icon</string></array>")
        var alternates = ExampleTrees.singleSize()
        alternates["App/Info.plist"] = ExampleTrees.plist(
            "<key>CFBundleIconName</key><string>AppIcon</string><key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconFiles</key><array><string>AppIcon</string></array></dict><key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconFiles</key><array><string>AppIcon-Dark</string></array></dict></dict></dict>"
        )
        alternates["App/Assets.xcassets/AppIcon-Dark.appiconset/Contents.json"] = .text("{\"images\":[]}")
        // Xcode's own form: the primary and each alternate by CFBundleIconName (no file lists).
        var byIconName = ExampleTrees.singleSize()
        byIconName["App/Info.plist"] = ExampleTrees.plist(
            "<key>CFBundleIconName</key><string>AppIcon</string><key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict><key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconName</key><string>AppIcon-Dark</string></dict></dict></dict>"
        )
        byIconName["App/Assets.xcassets/AppIcon-Dark.appiconset/Contents.json"] = ExampleTrees.contents([
            ("universal", "1024x1024", nil, "dark.png")
        ])
        byIconName["App/Assets.xcassets/AppIcon-Dark.appiconset/dark.png"] = ExampleTrees.png(1024)
        // Alternates shipped as loose files beside a catalog primary icon: legal, and the key
        // must stay (removing CFBundleIcons loses them).
        var looseAlternates = ExampleTrees.singleSize()
        looseAlternates["App/Info.plist"] = ExampleTrees.plist(
            "<key>CFBundleIconName</key><string>AppIcon</string><key>CFBundleIcons</key><dict><key>CFBundleAlternateIcons</key><dict><key>Retro</key><dict><key>CFBundleIconFiles</key><array><string>RetroIcon</string></array></dict></dict></dict>"
        )
        looseAlternates["App/RetroIcon@2x.png"] = ExampleTrees.png(120)
        var noName = ExampleTrees.singleSize()
        noName["App/Info.plist"] = ExampleTrees.plist("<key>CFBundleName</key><string>App</string>")
        return [
            RuleExample("catalog icons and CFBundleIconName", files: good, passes: rules.map(\.id)),
            RuleExample("catalog icons and a stale CFBundleIconFiles", files: stale, triggers: ["plist.icon-keys-with-catalog"]),
            RuleExample(
                "alternate icons declared in CFBundleIcons by their set names", files: alternates, passes: ["plist.icon-keys-with-catalog"]),
            RuleExample(
                "alternate icons declared in CFBundleIcons by CFBundleIconName", files: byIconName,
                passes: ["plist.icon-keys-with-catalog"]),
            RuleExample(
                "alternate icons shipped as loose files in CFBundleIcons, the primary from the catalog", files: looseAlternates,
                passes: ["plist.icon-keys-with-catalog"]),
            RuleExample("catalog icons without CFBundleIconName", files: noName, triggers: ["plist.icon-name-missing"]),
        ]
    }()
}
