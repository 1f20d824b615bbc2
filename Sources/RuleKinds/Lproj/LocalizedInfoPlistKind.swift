import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `lproj.infoplist-name-case`, `lproj.infoplist-unknown-key`, `lproj.infoplist-version-localized`,
/// `lproj.strings-invalid`: the localized Info.plist (`InfoPlist.strings` in each `.lproj`) and
/// every `.strings` file there, as Xcode and the device read them (requirements-2026.md 7.1–7.3).
package struct LocalizedInfoPlistKind: RuleKind {
    package static let name = "localized-info-plist"
    package static let summary =
        "Checks the .strings files of each .lproj (encoding, syntax) and InfoPlist.strings' name and keys against the app's Info.plist."
    package static let subjects: Set<SubjectKind> = [.localization, .infoPlist]

    package static let nameCase = RuleInfo(
        id: "lproj.infoplist-name-case", severity: .warning,
        summary: "A localized Info.plist named in another case than InfoPlist.strings (infoPlist.strings, Infoplist.strings …).",
        rationale:
            "iOS looks the table up as InfoPlist on a case-sensitive file system: a file named otherwise is never read on a device, and the localized names and purpose strings fall back to the development language (issue 58, cause 14).",
        fix: "Rename the file to InfoPlist.strings (in every .lproj).")
    package static let unknownKey = RuleInfo(
        id: "lproj.infoplist-unknown-key", severity: .warning,
        summary: "InfoPlist.strings localizes a key the app's Info.plist does not have: it never applies.",
        rationale:
            "Only keys of the Info.plist are localized; Privacy._.Camera.Usage.Description beside NSCameraUsageDescription is never shown, users then see the English string (requirements-2026.md 7.2).",
        fix: "Use the Info.plist's own key (NSCameraUsageDescription …), or add the key to the Info.plist.")
    package static let versionLocalized = RuleInfo(
        id: "lproj.infoplist-version-localized", severity: .warning,
        summary: "InfoPlist.strings localizes CFBundleShortVersionString or CFBundleVersion.",
        rationale:
            "The version is one value for the bundle; App Store Connect and the system read the Info.plist's, and a localized one only confuses users and crash reports (Apple: Core Foundation Keys, \"should not be localized\").",
        fix: "Remove the version keys from InfoPlist.strings.")
    package static let stringsInvalid = RuleInfo(
        id: "lproj.strings-invalid", severity: .error,
        summary: "A .strings file of an .lproj that is neither UTF-8 nor UTF-16 with a byte-order mark, or not .strings syntax.",
        rationale:
            "Xcode's CopyStringsFile fails the build: \"could not decode input file using specified encoding: Unicode (UTF-8), and the file contents do not contain a byte order mark\" (requirements-2026.md 7.3), or a syntax error at the line.",
        fix: "Save the file as UTF-8, and fix the line the finding names (\"key\" = \"value\";).")
    package static let rules = [nameCase, unknownKey, versionLocalized, stringsInvalid]
    static let keysTag = "infoplist-strings-keys"

    /// Keys localized without being in the Info.plist: the bundle names iOS reads from the table.
    static let bundleNames: Set<String> = ["CFBundleDisplayName", "CFBundleName", "CFBundleSpokenName", "NSHumanReadableCopyright"]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        if subject.kind == .infoPlist { return evaluateCatalog(subject, in: context) }
        guard case .success(let entries) = context.list(subject.path) else { return }
        for entry in entries.sorted(by: { $0.name < $1.name }) where !entry.isDirectory && entry.name.lowercased().hasSuffix(".strings") {
            let path = RelativePath.join(subject.path, entry.name)
            let bytes: [UInt8]
            switch context.read(path) {
            case .success(let b): bytes = b
            case .failure(let error):
                // Not judged, and said: a FIFO, an unreadable or an oversized table.
                context.report(EngineRules.unreadable, path: path, message: "\(entry.name) cannot be read: \(error.reason)")
                continue
            }
            let parsed = StringsFile.keys(bytes)
            if case .failure(let failure) = parsed {
                context.report(Self.stringsInvalid, path: path, line: failure.line, message: "\(entry.name): \(failure.message)")
            }
            let lower = entry.name.lowercased()
            if lower == "infoplist.strings", entry.name != "InfoPlist.strings" {
                context.report(
                    Self.nameCase, path: path,
                    message: "\(entry.name) is never read on a device: iOS looks for InfoPlist.strings (case-sensitive)")
            }
            guard lower == "infoplist.strings", case .success(let keys) = parsed else { continue }
            checkKeys(keys, path: path, context: context)
        }
    }

    /// The keys of the app's InfoPlist.strings against the Info.plist the app ships (an
    /// extension's or another target's folder is theirs, not judged here).
    func checkKeys(_ keys: [(key: String, line: Int)], path: String, context: EvaluationContext) {
        for (key, line) in keys where key == "CFBundleShortVersionString" || key == "CFBundleVersion" {
            context.report(Self.versionLocalized, path: path, line: line, message: "\(key) is localized; the version is not")
        }
        guard let app = context.project.infoPlist, context.project.otherTarget(containing: path) == nil,
            let plist = context.effectiveInfoPlist(app), plist["NSExtension"] == nil,
            !(context.project.infoPlistGenerated && context.project.buildSettingsIncomplete)
        else { return }
        // A string anywhere in the Info.plist may be a key of the table: quick action titles, URL
        // and document type names, the keys of NSLocationTemporaryUsageDescriptionDictionary are
        // localized by their value.
        var strings = Set<String>()
        Self.collect(.dictionary(plist), into: &strings)
        let unknown = keys.filter { !strings.contains($0.key) && !Self.bundleNames.contains($0.key) }
        guard !unknown.isEmpty else { return }
        // One finding for a key, on the first localization (by name) that has it, counting the others.
        let lproj = RelativePath.parent(path)
        let others = context.subjects(.localization).map(\.path).filter {
            $0 != lproj && context.project.otherTarget(containing: $0) == nil
        }
        var elsewhere: [String: (earlier: Bool, count: Int)] = [:]
        for other in others {
            let table = RelativePath.join(other, "InfoPlist.strings")
            let found: Set<String> = context.derived(table, tag: Self.keysTag) { bytes in
                guard case .success(let bytes) = bytes, case .success(let keys) = StringsFile.keys(bytes) else { return [] }
                return Set(keys.map(\.key))
            }
            for (key, _) in unknown where found.contains(key) {
                let seen = elsewhere[key] ?? (false, 0)
                elsewhere[key] = (seen.earlier || other < lproj, seen.count + 1)
            }
        }
        for (key, line) in unknown where elsewhere[key]?.earlier != true {
            let close = plist.keys.filter { EditDistance.isClose(key, $0) }.sorted()
            let hint = close.isEmpty ? "" : " (did you mean \(close.prefix(2).joined(separator: " or "))?)"
            let more = elsewhere[key].map { " (and in \($0.count) other localization\($0.count == 1 ? "" : "s"))" } ?? ""
            context.report(
                Self.unknownKey, path: path, line: line,
                message:
                    "\(key) is not a key of the app's Info.plist (\(app)): its translation never applies\(more)\(hint)")
        }
    }

    /// Every key and string value of a property list.
    static func collect(_ value: PlistValue, into out: inout Set<String>, depth: Int = 0) {
        guard depth < 32 else { return }
        switch value {
        case .string(let s): out.insert(s)
        case .array(let a): for v in a { collect(v, into: &out, depth: depth + 1) }
        case .dictionary(let d):
            for (k, v) in d {
                out.insert(k)
                collect(v, into: &out, depth: depth + 1)
            }
        default: break
        }
    }

    package static let examples: [RuleExample] = {
        let app = ExampleTrees.plist(
            "<key>CFBundleName</key><string>App</string><key>NSCameraUsageDescription</key><string>Scans receipts.</string>")
        return [
            RuleExample(
                "InfoPlist.strings with the app's keys",
                files: [
                    "App/Info.plist": app,
                    "App/fr.lproj/InfoPlist.strings": .text(
                        "/* Camera */\n\"NSCameraUsageDescription\" = \"Scanne les reçus.\";\nCFBundleDisplayName = \"Appli\";\n"),
                ], passes: rules.map(\.id)),
            RuleExample(
                "infoPlist.strings (lower-case i)",
                files: ["App/Info.plist": app, "App/de.lproj/infoPlist.strings": .text("\"CFBundleName\" = \"App\";\n")],
                triggers: ["lproj.infoplist-name-case"]),
            RuleExample(
                "a key the Info.plist does not have",
                files: [
                    "App/Info.plist": app,
                    "App/fr.lproj/InfoPlist.strings": .text(
                        "\"NSCameraUsageDescription\" = \"x\";\n\"NSCamraUsageDescription\" = \"y\";\n"),
                ], triggers: ["lproj.infoplist-unknown-key"]),
            RuleExample(
                "a quick action title localized by its value, and a compiled .strings file",
                files: [
                    "App/Info.plist": ExampleTrees.plist(
                        "<key>UIApplicationShortcutItems</key><array><dict><key>UIApplicationShortcutItemTitle</key><string>SEARCH_TITLE</string></dict></array>"
                    ), "App/fr.lproj/InfoPlist.strings": .text("\"SEARCH_TITLE\" = \"Rechercher\";\n"),
                    "App/fr.lproj/Root.strings": .bytes(
                        Array(
                            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>Group</key><string>Groupe</string></dict></plist>"
                                .utf8)),
                ], passes: rules.map(\.id)),
            RuleExample(
                "an InfoPlist.xcstrings beside the Info.plist localizing a key the Info.plist lacks",
                files: [
                    "App/Info.plist": app,
                    "App/InfoPlist.xcstrings": .text(
                        "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"NSCameraUsageDescription\" : {},\n    \"NSContactsUsageDescription\" : {}\n  },\n  \"version\" : \"1.0\"\n}\n"
                    ),
                ], triggers: ["lproj.infoplist-unknown-key"]),
            RuleExample(
                "an InfoPlist.xcstrings with the app's keys",
                files: [
                    "App/Info.plist": app,
                    "App/InfoPlist.xcstrings": .text(
                        "{\"sourceLanguage\":\"en\",\"strings\":{\"NSCameraUsageDescription\":{}},\"version\":\"1.0\"}"),
                ], passes: rules.map(\.id)),
            RuleExample(
                "a localized version",
                files: [
                    "App/Info.plist": app, "App/fr.lproj/InfoPlist.strings": .text("\"CFBundleShortVersionString\" = \"1.0 bêta\";\n"),
                ],
                triggers: ["lproj.infoplist-version-localized"]),
            RuleExample(
                "UTF-16 without a byte-order mark",
                files: [
                    "App/fr.lproj/Localizable.strings": .bytes(
                        Array("\"a\" = \"b\";".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
                ],
                triggers: ["lproj.strings-invalid"]),
            RuleExample(
                "UTF-16 with a byte-order mark",
                files: [
                    "App/fr.lproj/Localizable.strings": .bytes(
                        [0xFF, 0xFE] + Array("\"a\" = \"b\";".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }))
                ], passes: ["lproj.strings-invalid"]),
            RuleExample(
                "a missing semicolon", files: ["App/fr.lproj/Localizable.strings": .text("\"a\" = \"b\"\n\"c\" = \"d\";\n")],
                triggers: ["lproj.strings-invalid"]),
        ]
    }()
}
