import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `plist.version-format`: the versions App Store Connect reads from the app and from each
/// extension it embeds, after Xcode's substitution: "a period-separated list of at most three
/// non-negative integers" (ITMS-90060 for CFBundleShortVersionString, ITMS-90058 for
/// CFBundleVersion; requirements-2026.md 2.6, VERIFIED). Flutter's `$(FLUTTER_BUILD_NAME)` and
/// `$(FLUTTER_BUILD_NUMBER)` come from `pubspec.yaml`'s `version: 1.2.3+45`; a variable that
/// cannot be resolved is said, never guessed.
package struct VersionFormatKind: RuleKind {
    package static let name = "version-format"
    package static let summary = "Checks the format of the app's and its extensions' versions (ITMS-90060, ITMS-90058)."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let format = RuleInfo(
        id: "plist.version-format", severity: .error, code: "ITMS-90060",
        summary:
            "CFBundleShortVersionString (ITMS-90060) or CFBundleVersion (ITMS-90058) of the app or an extension is not one to three period-separated non-negative integers after substitution.",
        rationale:
            "App Store Connect: \"The value for key CFBundleShortVersionString … must be a period-separated list of at most three non-negative integers\" (ITMS-90060), and the same for CFBundleVersion (ITMS-90058); a space or a suffix such as \"1.0-beta\" fails (requirements-2026.md 2.6).",
        fix: "Use versions like 2.4.1 and build numbers like 245 or 2.4.1; keep suffixes for your own tags, not the bundle.")
    package static let rules = [format]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        let other = project.otherTargets.first { $0.infoPlistFile == subject.path }
        guard project.infoPlist == subject.path || (other != nil && !other!.notChecked), let dict = context.effectiveInfoPlist(subject.path)
        else { return }
        let settings = other?.settings ?? project.appSettings
        let incomplete = other?.settingsIncomplete ?? project.buildSettingsIncomplete
        let who = other.map { "\($0.name)'s" } ?? "the app's"
        for (key, code) in [("CFBundleShortVersionString", "ITMS-90060"), ("CFBundleVersion", "ITMS-90058")] {
            guard let raw = dict[key]?.text else { continue }  // a missing key is other rules' (plist.bundle-name-missing …)
            var text = raw
            if text.contains("$(FLUTTER_BUILD_") || text.contains("${FLUTTER_BUILD_") {
                guard let flutter = Self.flutterVersion(context) else {
                    context.report(
                        EngineRules.notChecked, path: subject.path, key: key,
                        message:
                            "\(who) \(key) is \(raw), and no pubspec.yaml beside the project gives Flutter's version: its format was not checked"
                    )
                    continue
                }
                for (name, value) in [("FLUTTER_BUILD_NAME", flutter.name), ("FLUTTER_BUILD_NUMBER", flutter.number)] {
                    text = text.replacingOccurrences(of: "$(\(name))", with: value).replacingOccurrences(of: "${\(name)}", with: value)
                }
            }
            let value: String
            switch BundleKeysKind.resolve(key, in: [key: .string(text)], settings: settings, generated: false, incomplete: incomplete) {
            case .value(let v): value = v
            case .empty, .missing: continue  // said by the bundle-keys rules
            case .unknown:
                context.report(
                    EngineRules.notChecked, path: subject.path, key: key,
                    message:
                        "\(who) \(key) is \(raw), which the target's build settings read here do not resolve: its format was not checked")
                continue
            }
            guard !Self.isValid(value) else { continue }
            context.report(
                Self.format, path: subject.path, key: key,
                message:
                    "\(who) \(key) is \"\(value)\"\(value == raw ? "" : " (from \(raw))"): App Store Connect wants one to three period-separated non-negative integers (\(code))"
            )
        }
    }

    /// One to three period-separated runs of ASCII digits.
    static func isValid(_ version: String) -> Bool {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }
    }

    /// `version: NAME+NUMBER` of the Flutter app's pubspec.yaml (the project is its `ios/` folder).
    static func flutterVersion(_ context: EvaluationContext) -> (name: String, number: String)? {
        let dir = context.project.directory
        for candidate in [RelativePath.join(RelativePath.parent(dir), "pubspec.yaml"), RelativePath.join(dir, "pubspec.yaml")] {
            guard dir != "" || candidate == "pubspec.yaml", case .success(let bytes) = context.read(candidate) else { continue }
            for line in String(decoding: bytes.prefix(1 << 16), as: UTF8.self).split(whereSeparator: \.isNewline) {
                guard line.hasPrefix("version:") else { continue }
                let value = line.dropFirst("version:".count).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\"", "'"])
                let parts = value.split(separator: "+", maxSplits: 1)
                guard let name = parts.first else { return nil }
                return (String(name), parts.count > 1 ? String(parts[1]) : String(name))
            }
        }
        return nil
    }

    package static let examples: [RuleExample] = {
        let plist = { (short: String, build: String) in
            ExampleTrees.plist(
                "<key>CFBundleShortVersionString</key><string>\(short)</string><key>CFBundleVersion</key><string>\(build)</string>")
        }
        let flutterProject = ExampleTrees.pbxproj(buildSettings: "INFOPLIST_FILE = Runner/Info.plist; SDKROOT = iphoneos;")
        return [
            RuleExample("2.4.1 and 245", files: ["App/Info.plist": plist("2.4.1", "245")], passes: rules.map(\.id)),
            RuleExample("a suffix in the version", files: ["App/Info.plist": plist("1.0-beta", "12")], triggers: ["plist.version-format"]),
            RuleExample(
                "a space in the build number", files: ["App/Info.plist": plist("1.0", "241209 854")], triggers: ["plist.version-format"]),
            RuleExample("four components", files: ["App/Info.plist": plist("1.2.3.4", "1")], triggers: ["plist.version-format"]),
            RuleExample(
                "$(MARKETING_VERSION) resolved from the target's settings",
                files: [
                    "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                        buildSettings:
                            "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; MARKETING_VERSION = \"3.0 (beta)\"; CURRENT_PROJECT_VERSION = 7;"
                    ),
                    "App/Info.plist": plist("$(MARKETING_VERSION)", "$(CURRENT_PROJECT_VERSION)"),
                ], triggers: ["plist.version-format"]),
            RuleExample(
                "Flutter's variables from pubspec.yaml",
                files: [
                    "ios/Runner.xcodeproj/project.pbxproj": flutterProject,
                    "ios/Runner/Info.plist": plist("$(FLUTTER_BUILD_NAME)", "$(FLUTTER_BUILD_NUMBER)"),
                    "pubspec.yaml": .text("name: app\nversion: 1.4.0+27\n"),
                ], passes: rules.map(\.id)),
            RuleExample(
                "a Flutter version with a suffix",
                files: [
                    "ios/Runner.xcodeproj/project.pbxproj": flutterProject,
                    "ios/Runner/Info.plist": plist("$(FLUTTER_BUILD_NAME)", "$(FLUTTER_BUILD_NUMBER)"),
                    "pubspec.yaml": .text("name: app\nversion: 1.4.0-rc1+27\n"),
                ], triggers: ["plist.version-format"]),
        ]
    }()
}
