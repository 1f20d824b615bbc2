import Findings
import ImageFacts
import ProjectModel
import RuleKit
import SystemCalls

/// Loose app icons named by Info.plist (`CFBundleIconFile(s)`, `CFBundleIcons`(`~ipad`)), checked
/// against QA1686's tables — for apps that do not take their icons from an asset catalog.
package struct LegacyIconsKind: RuleKind {
    package static let name = "legacy-icons"
    package static let summary = "Checks loose icon files named by Info.plist against Apple's icon tables (QA1686)."
    package static let subjects: Set<SubjectKind> = [.project]

    package static let invalidPath = RuleInfo(
        id: "plist.invalid-image-path", severity: .error, code: "ITMS-90032",
        summary:
            "An icon name under CFBundleIconFile(s)/CFBundleIcons/CFBundleAlternateIcons has no matching file; without an extension @2x/@3x/~ipad variants are found automatically, with one every variant must be listed.",
        rationale:
            "App Store Connect: \"Invalid Image Path - No image found at the path referenced under key …\" (ITMS-90032); QA1686: \"If you include extensions, you must specify all image files … explicitly\".",
        fix: "Add the file to the project, or fix the name; prefer names without extension so variants are found.")
    package static let rules = [
        invalidPath, AppIconSetKind.sizeMismatch, AppIconSetKind.missingRequired, AppIconSetKind.missingRecommended,
        AppIconSetKind.marketingMissing,
    ]
    package static let parameters = ["rows": "the seed icon tables (shared with appicon-set through a YAML anchor)"]

    let table: IconTable

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        var rows: [IconTableRow] = []
        for item in try p.list("rows") ?? [] { rows.append(try IconTableRow.parse(item)) }
        guard !rows.isEmpty else { throw p.error("legacy-icons: give the rows: table") }
        table = IconTable(rows: rows, legacySlots: [])
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard let infoPath = project.infoPlist, case .success(let (value, _)) = context.plist(infoPath), let plist = value.dictionary,
            plist["NSExtension"] == nil
        else { return }
        let names = LegacyIconNames.iconNames(plist)
        // Apps on an asset catalog are checked by appicon-set.
        let catalogSet = (project.appIconName ?? "AppIcon") + ".appiconset"
        if context.subjects(.assetSet).contains(where: { RelativePath.name($0.path) == catalogSet }) { return }
        // So are apps on an Icon Composer icon (Xcode 26 makes every size, loose legacy PNGs too).
        if let name = project.appIconName, IconBundles.compiled(named: name, in: context) != nil { return }
        // Every loose PNG of the project, by file name (Xcode copies resources flat into the bundle).
        var files: [String: String] = [:]
        for s in context.subjects(.image) + context.subjects(.loosePNG) {
            let parent = RelativePath.name(RelativePath.parent(s.path))
            if SubjectClassifier.assetSetType(ofDirectory: parent) == nil { files[RelativePath.name(s.path)] = s.path }
        }
        var declared: [String] = []  // file paths the plist names
        // Names the plist lists that are not there: a size missing because its file is is one finding.
        var missingNames: [(name: String, finding: ReportedFinding?)] = []
        for (key, name) in names {
            let found = LegacyIconNames.resolve(name, in: files)
            if found.isEmpty {
                let finding = context.report(
                    Self.invalidPath, path: infoPath,
                    message: "\(key) names \"\(name)\", but the project has no "
                        + (name.contains(".") ? name : "\(name).png (or @2x/@3x/~ipad variant)"))
                missingNames.append((name, finding))
            }
            declared += found
        }
        // iOS finds the fixed names by name (iOS Application Programming Guide (2010): before 3.2 only so; from iOS 4 after
        // CFBundleIconFiles): a file there under its fixed name is an icon, listed or not.
        declared += files.filter { LegacyIconNames.fixedNames.contains($0.key) }.map(\.value)
        if names.isEmpty && declared.isEmpty { return }
        var sizes = Set<Int>()
        // The seed's own rows (they name a file), and the sizes App Store Connect requires whatever
        // holds the icons (iPad 152 and 167, ITMS-90023): loose files and catalogs agree on them.
        let rows = table.rows(for: project).filter {
            ($0.file != nil && !$0.file!.hasPrefix("iTunesArtwork")) || ($0.file == nil && $0.level(for: project.distribution) == .required)
        }
        // A listed icon that is a Git LFS pointer has a size nobody can know here: no size is then
        // called missing (the pointer itself is said by png-properties).
        var sizeUnknown = false
        for path in Set(declared).sorted() {
            guard case .success(let facts) = context.image(path), let h = facts.header else {
                if case .success(let facts) = context.image(path), facts.kind == .lfsPointer { sizeUnknown = true }
                continue
            }
            if h.width == h.height { sizes.insert(h.width) }
            let file = RelativePath.name(path)
            if let row = table.rows.first(where: { $0.file == file }), h.width != row.pixels || h.height != row.pixels {
                context.report(
                    AppIconSetKind.sizeMismatch, path: path,
                    message: "\(file) is \(h.width)x\(h.height) but should be \(row.pixels)x\(row.pixels) (its legacy name)")
            }
        }
        // A missing size is shown on the key that lists the icons (where a file name goes).
        let listKey = ["CFBundleIcons", "CFBundleIconFiles", "CFBundleIconFile"].first { plist[$0] != nil }
        if !sizeUnknown {
            reportMissingSizes(
                rows.filter { !sizes.contains($0.pixels) }, context, infoPath: infoPath, key: listKey, missingNames: missingNames)
        }
        reportStoreIcon(context, infoPath: infoPath)
    }

    /// icon.missing-required / icon.missing-recommended for the table's sizes no listed file has
    /// (a size missing because a listed file is missing follows that finding).
    func reportMissingSizes(
        _ rows: [IconTableRow], _ context: EvaluationContext, infoPath: String, key: String?,
        missingNames: [(name: String, finding: ReportedFinding?)]
    ) {
        let project = context.project
        let label = project.devices == [.iphone] ? "iPhone-only" : (project.devices == [.ipad] ? "iPad-only" : "universal")
        var reported = Set<Int>()
        for pass in [IconLevel.required, .recommended] {
            for row in rows where !reported.contains(row.pixels) {
                var level = row.level(for: project.distribution)
                if let from = row.legacyFrom, project.deploymentTarget >= from { level = .optional }
                if level == .settings { level = AppIconSetKind.hasSettingsBundle(context) ? .recommended : .optional }
                guard level == pass else { continue }
                reported.insert(row.pixels)
                let what = "no \(row.pixels)x\(row.pixels) icon" + (row.file.map { " (\($0))" } ?? "")
                // The row's file is one the plist names but the project lacks: that finding says it.
                let cause = row.file.flatMap { file in missingNames.first { Self.names($0.name, file) }?.finding }
                if pass == .required {
                    context.report(
                        AppIconSetKind.missingRequired(code: row.code),
                        path: infoPath, key: key,
                        message:
                            "\(what) among the icons Info.plist names ("
                            + (row.file == nil ? "App Store Connect requires it for apps that run on iPad" : "required for \(label) apps")
                            + ", deployment target \(project.deploymentTarget); \(label) because \(project.devicesBecause))",
                        follows: cause, brief: what)
                } else {
                    context.report(
                        AppIconSetKind.missingRecommended, path: infoPath, key: key,
                        message: "\(what) among the icons Info.plist names (optional but recommended)", follows: cause, brief: what)
                }
            }
        }
    }

    /// App Store Connect takes the 1024 App Store icon from an asset catalog (ITMS-90704): an app
    /// whose icons are all loose files has none.
    func reportStoreIcon(_ context: EvaluationContext, infoPath: String) {
        guard context.project.distribution == .appStore else { return }
        context.report(
            AppIconSetKind.marketingMissing, path: infoPath,
            message:
                "the app's icons are loose files named by Info.plist; App Store Connect takes the 1024x1024 App Store icon from an asset catalog's app icon set, which the app does not have",
            fix:
                "Add an asset catalog with an app icon set holding a 1024x1024 RGB PNG without alpha, and set ASSETCATALOG_COMPILER_APPICON_NAME."
        )
    }

    /// Whether a name Info.plist lists stands for `file`: the name itself, or without its
    /// extension, any variant iOS resolves it to (`Icon-60` → `Icon-60@2x.png`).
    static func names(_ listed: String, _ file: String) -> Bool {
        if listed == file { return true }
        let base = listed.hasSuffix(".png") ? String(listed.dropLast(4)) : listed
        return ["", "@2x", "@3x", "~ipad", "@2x~ipad", "~iphone", "@2x~iphone", "@3x~iphone"].contains { base + $0 + ".png" == file }
    }

    package static let examples: [RuleExample] = {
        let png = { (side: Int) in ExampleFile.png(PNGSpec(width: side, height: side)) }
        let plist = { (names: String) in
            ExampleTrees.plist(
                "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconFiles</key><array>\(names)</array></dict></dict>"
            )
        }
        let config = ExampleTrees.config(devices: "[iphone]", target: "8.0")
        let adHoc = ExampleTrees.config(devices: "[iphone]", target: "8.0", extra: "distribution: ad-hoc\n")
        return [
            RuleExample(
                "an iPhone app's icons named without extensions (Ad Hoc)",
                files: [
                    "App/.reswatch.yaml": adHoc,
                    "App/Info.plist": plist(
                        "<string>Icon-60</string><string>Icon-76</string><string>Icon-Small-40</string><string>Icon-Small</string>"),
                    "App/Icons/Icon-60@2x.png": png(120), "App/Icons/Icon-60@3x.png": png(180), "App/Icons/Icon-Small-40@2x.png": png(80),
                    "App/Icons/Icon-Small-40@3x.png": png(120), "App/Icons/Icon-Small@2x.png": png(58),
                    "App/Icons/Icon-Small@3x.png": png(87),
                    "App/Icons/Icon-76.png": png(76), "App/Icons/Icon-76@2x.png": png(152), "App/Icons/Icon-Small-40.png": png(40),
                ], passes: rules.map(\.id)),
            RuleExample(
                "loose icons that are Git LFS pointers (a clone without git-lfs): no size is called missing (Ad Hoc)",
                files: [
                    "App/.reswatch.yaml": adHoc, "App/Info.plist": plist("<string>Icon-60</string>"),
                    "App/Icon-60@2x.png": .text("version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 4096\n"),
                ], triggers: ["project.left-out"], passes: ["icon.missing-required", "icon.missing-recommended"]),
            RuleExample(
                "loose icons only, for the App Store: no 1024 App Store icon (it must come from an asset catalog)",
                files: [
                    "App/.reswatch.yaml": config, "App/Info.plist": plist("<string>Icon-60</string>"), "App/Icon-60@2x.png": png(120),
                ], triggers: ["icon.marketing-missing"]),
            RuleExample(
                "a name with no file", files: ["App/.reswatch.yaml": config, "App/Info.plist": plist("<string>Missing</string>")],
                triggers: ["plist.invalid-image-path", "icon.missing-required"]),
            RuleExample(
                "a name with an extension finds no @2x variant",
                files: [
                    "App/.reswatch.yaml": config, "App/Info.plist": plist("<string>Icon-60.png</string>"), "App/Icon-60@2x.png": png(120),
                ], triggers: ["plist.invalid-image-path"]),
            RuleExample(
                "Icon-60@2x.png one pixel off",
                files: [
                    "App/.reswatch.yaml": config, "App/Info.plist": plist("<string>Icon-60</string>"),
                    "App/Icon-60@2x.png": .png(PNGSpec(width: 121, height: 121)),
                ], triggers: ["icon.size-mismatch", "icon.missing-required"]),
            RuleExample(
                "no 120x120 icon",
                files: [
                    "App/.reswatch.yaml": config, "App/Info.plist": plist("<string>Icon-Small</string>"), "App/Icon-Small@2x.png": png(58),
                ], triggers: ["icon.missing-required", "icon.missing-recommended"]),
        ]
    }()
}
