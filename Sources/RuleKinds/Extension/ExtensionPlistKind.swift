import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `extension.activation-truepredicate`, `extension.plist-keys`, `extension.point-unknown`: the
/// `NSExtension` dictionary of each app extension's Info.plist, as its target ships it
/// (requirements-2026.md 3.1–3.3). An Info.plist no target names is no product's (left out).
package struct ExtensionPlistKind: RuleKind {
    package static let name = "extension-plist"
    package static let summary =
        "Checks each app extension's NSExtension dictionary: no TRUEPREDICATE activation rule, no obsolete or wrongly typed keys, a JavaScript file it ships, an extension point of its platform."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let truePredicate = RuleInfo(
        id: "extension.activation-truepredicate", severity: .error, code: "ITMS-90362",
        summary: "An extension's NSExtensionActivationRule is the string TRUEPREDICATE.",
        rationale:
            "Xcode: \"Embedded binary's NSExtensionActivationRule is TRUEPREDICATE … If any extensions in your containing app include TRUEPREDICATE, the app will be rejected\"; App Store Connect refuses it (ITMS-90362; requirements-2026.md 3.1).",
        fix:
            "Replace it with a dictionary of the content the extension takes (NSExtensionActivationSupportsWebURLWithMaxCount = 1 …) or a predicate string that names it."
    )
    package static let plistKeys = RuleInfo(
        id: "extension.plist-keys", severity: .error,
        summary:
            "An extension's NSExtension has the obsolete NSExtensionPointName/NSExtensionPointVersion (ITMS-90363), an NSExtensionActivationSupports… value of the wrong type (ITMS-90361), or an NSExtensionJavaScriptPreprocessingFile the extension does not ship.",
        rationale:
            "App Store Connect refuses each: \"invalid key\" for the obsolete point keys (ITMS-90363), \"must be of type Boolean\" for a text value (ITMS-90361), and a preprocessing file missing from the extension's bundle (requirements-2026.md 3.2).",
        fix:
            "Delete NSExtensionPointName and NSExtensionPointVersion; write the activation values as <true/>/<false/> or <integer>; add the .js file to the extension's Copy Bundle Resources."
    )
    package static let pointUnknown = RuleInfo(
        id: "extension.point-unknown", severity: .warning,
        summary: "An NSExtensionPointIdentifier that is a misspelling of a known one, or one that exists only on another platform.",
        rationale:
            "iOS refuses to install an extension whose point is not one it knows: \"…specifies a value (…) for the NSExtensionPointIdentifier key … that does not correspond to a known extension point\" (requirements-2026.md 3.3). An identifier reswatch does not know and that resembles none is not judged (Apple adds points each year).",
        fix: "Use the extension point the extension's template gives (Xcode: File → New → Target).")
    package static let rules = [truePredicate, plistKeys, pointUnknown]
    package static let parameters = [
        "known": "the extension points of iOS (for misspellings)",
        "other-platforms": "extension points that exist only on another platform, with that platform",
    ]

    let known: Set<String>
    let otherPlatforms: [String: String]

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        guard let list = try p.strings("known"), !list.isEmpty else { throw p.error("extension-plist: give the known: extension points") }
        known = Set(list)
        otherPlatforms = try p.stringMap("other-platforms") ?? [:]
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard project.infoPlist != subject.path, let dict = context.effectiveInfoPlist(subject.path),
            let nsExtension = dict["NSExtension"]?.dictionary
        else { return }
        let target = project.otherTargets.first { $0.infoPlistFile == subject.path }
        if let target, target.notChecked || ![.iOS, .unknown].contains(target.platform) { return }
        let attributes = nsExtension["NSExtensionAttributes"]?.dictionary ?? [:]
        for key in ["NSExtensionPointName", "NSExtensionPointVersion"] where nsExtension[key] != nil || attributes[key] != nil {
            context.report(
                Self.plistKeys, path: subject.path, key: key,
                message: "NSExtension has the obsolete key \(key), which App Store Connect refuses (ITMS-90363)")
        }
        let rule = attributes["NSExtensionActivationRule"]
        if let text = rule?.string, text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased() == "TRUEPREDICATE" {
            context.report(
                Self.truePredicate, path: subject.path, key: "NSExtensionActivationRule",
                message:
                    "NSExtensionActivationRule is TRUEPREDICATE: App Store Connect rejects an app whose extension activates for everything")
        }
        for (key, value) in (rule?.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) where key.hasPrefix("NSExtensionActivationSupports") {
            let counts = key.hasSuffix("Count")
            let typed: Bool
            switch value {
            case .boolean: typed = !counts
            case .integer: typed = true
            case .real: typed = counts
            default: typed = false
            }
            guard !typed else { continue }
            context.report(
                Self.plistKeys, path: subject.path, key: key,
                message:
                    "\(key) must be \(counts ? "an integer" : "a Boolean (<true/> or <false/>)"), not \(Self.describe(value)) (ITMS-90361)")
        }
        if let script = attributes["NSExtensionJavaScriptPreprocessingFile"]?.string, !script.isEmpty, !script.contains("$") {
            checkScript(script, target: target, plist: subject.path, context: context)
        }
        if let point = nsExtension["NSExtensionPointIdentifier"]?.string, !point.isEmpty, !point.contains("$"), !known.contains(point) {
            if let platform = otherPlatforms[point] {
                context.report(
                    Self.pointUnknown, path: subject.path, key: "NSExtensionPointIdentifier",
                    message: "NSExtensionPointIdentifier is \(point), an extension point of \(platform) only: iOS refuses to install it")
            } else if let close = known.filter({ EditDistance.distance(point.lowercased(), $0.lowercased()) <= 2 }).sorted().first {
                // At most two edits from a known point (a case slip, a dropped or swapped letter):
                // points Apple named apart (app-proxy, app-push) are further than that.
                context.report(
                    Self.pointUnknown, path: subject.path, key: "NSExtensionPointIdentifier",
                    message: "NSExtensionPointIdentifier is \(point), which iOS does not know; did you mean \(close)?")
            }
        }
    }

    /// The preprocessing file is `NAME.js` in the extension's bundle. Which files a target bundles
    /// is not always known file by file (synchronized folders and their exceptions), so a `.js` of
    /// that name anywhere in the project counts: the finding is for one the project does not have.
    func checkScript(_ script: String, target: OtherTarget?, plist: String, context: EvaluationContext) {
        let file = script + ".js"
        if let target, target.resources.contains(where: { RelativePath.name($0) == file }) { return }
        // A tree without the extension's sources is a part of the project (a resource folder
        // copied out): a file missing from it may be in the whole one. Said, not judged.
        let folders = (target?.paths ?? []) + (target?.sources ?? []) + [RelativePath.parent(plist)]
        guard context.subjects(.source).contains(where: { s in folders.contains { RelativePath.isWithin(s.path, $0) } }) else {
            context.report(
                EngineRules.notChecked, path: plist, line: 1,
                message:
                    "NSExtensionJavaScriptPreprocessingFile is \(script), and the extension's sources are not in the tree: whether it ships \(file) cannot be told, so it was not checked"
            )
            return
        }
        var budget = 20000
        guard !Self.contains(file, in: context.project.directory, depth: 0, budget: &budget, context: context) else { return }
        guard budget > 0 else { return }  // a project too large to search here: not guessed
        context.report(
            Self.plistKeys, path: plist, key: "NSExtensionJavaScriptPreprocessingFile",
            message: "NSExtensionJavaScriptPreprocessingFile is \(script), but the project has no \(file) for the extension to ship")
    }

    static func contains(_ name: String, in folder: String, depth: Int, budget: inout Int, context: EvaluationContext) -> Bool {
        guard depth < 8, case .success(let entries) = context.list(folder) else { return false }
        budget -= entries.count
        guard budget > 0 else { return false }
        if entries.contains(where: { !$0.isDirectory && $0.name == name }) { return true }
        for entry in entries where entry.isDirectory && !entry.name.hasPrefix(".") {
            if contains(name, in: RelativePath.join(folder, entry.name), depth: depth + 1, budget: &budget, context: context) {
                return true
            }
        }
        return false
    }

    static func describe(_ value: PlistValue) -> String {
        switch value {
        case .string(let s): "the string \"\(s)\""
        case .real(let r): "the real \(r)"
        case .boolean(let b): b ? "<true/>" : "<false/>"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .data: "data"
        case .date: "a date"
        case .integer(let i): "the integer \(i)"
        }
    }
}

extension ExtensionPlistKind {
    package static let examples: [RuleExample] = {
        let share = { (nsExtension: String, extra: [String: ExampleFile]) -> [String: ExampleFile] in
            var files: [String: ExampleFile] = [
                "App.xcodeproj/project.pbxproj": BundleKeysKind.project(), "App/Info.plist": BundleKeysKind.appPlist,
                "Share/Info.plist": ExampleTrees.plist(BundleKeysKind.goodKeys + "<key>NSExtension</key><dict>\(nsExtension)</dict>"),
            ]
            files.merge(extra) { a, _ in a }
            return files
        }
        let point = { (id: String) in "<key>NSExtensionPointIdentifier</key><string>\(id)</string>" }
        let rule = { (body: String) in
            point("com.apple.share-services") + "<key>NSExtensionAttributes</key><dict><key>NSExtensionActivationRule</key>\(body)</dict>"
        }
        return [
            RuleExample(
                "a share extension that takes one web URL",
                files: share(rule("<dict><key>NSExtensionActivationSupportsWebURLWithMaxCount</key><integer>1</integer></dict>"), [:]),
                passes: rules.map(\.id)),
            RuleExample(
                "a share extension that activates for everything", files: share(rule("<string>TRUEPREDICATE</string>"), [:]),
                triggers: ["extension.activation-truepredicate"]),
            RuleExample(
                "the obsolete point keys and a text value where a Boolean goes",
                files: share(
                    rule("<dict><key>NSExtensionActivationSupportsText</key><string>YES</string></dict>")
                        + "<key>NSExtensionPointName</key><string>com.apple.share-services</string>", [:]),
                triggers: ["extension.plist-keys"]),
            RuleExample(
                "an action extension whose preprocessing script it ships",
                files: share(
                    point("com.apple.ui-services")
                        + "<key>NSExtensionAttributes</key><dict><key>NSExtensionJavaScriptPreprocessingFile</key><string>Action</string></dict>",
                    ["Share/Action.js": .text("var Action = function() {};\n"), "Share/ActionHandler.swift": .text("import UIKit\n")]),
                passes: rules.map(\.id)),
            RuleExample(
                "an action extension whose preprocessing script is not there",
                files: share(
                    point("com.apple.ui-services")
                        + "<key>NSExtensionAttributes</key><dict><key>NSExtensionJavaScriptPreprocessingFile</key><string>Action</string></dict>",
                    ["Share/ActionHandler.swift": .text("import UIKit\n")]), triggers: ["extension.plist-keys"]),
            RuleExample(
                "an action extension whose sources are not in the tree (a resource folder copied out) is said, not judged",
                files: share(
                    point("com.apple.ui-services")
                        + "<key>NSExtensionAttributes</key><dict><key>NSExtensionJavaScriptPreprocessingFile</key><string>Action</string></dict>",
                    [:]), triggers: ["project.not-checked"], passes: rules.map(\.id)),
            RuleExample(
                "a misspelt extension point and one of tvOS",
                files: share(point("com.apple.widgetkit-extention"), [:]).merging([
                    "Top/Info.plist": ExampleTrees.plist(
                        BundleKeysKind.goodKeys + "<key>NSExtension</key><dict>\(point("com.apple.tv-top-shelf"))</dict>")
                ]) { a, _ in a }, triggers: ["extension.point-unknown"]),
            RuleExample(
                "an extension point reswatch does not know and that resembles none is not judged",
                files: share(point("com.apple.some-future-extension-point"), [:]), passes: rules.map(\.id)),
        ]
    }()
}
