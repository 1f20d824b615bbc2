import Findings
import RuleKit

/// `plist.parse-error`: Info.plist files parse as XML, binary or OpenStep property lists.
package struct PlistSyntaxKind: RuleKind {
    package static let name = "plist-syntax"
    package static let summary = "Checks that Info.plist files are valid property lists."
    package static let subjects: Set<SubjectKind> = [.infoPlist]

    package static let parseError = RuleInfo(
        id: "plist.parse-error", severity: .error, code: "ITMS-90037",
        summary: "Info.plist is not a valid XML or binary property list.",
        rationale: "Xcode cannot process it and App Store Connect rejects the bundle (ITMS-90037).",
        fix:
            "Fix the syntax at the reported line (`plutil -lint` on a Mac; `python3 -c 'import plistlib,sys; plistlib.load(open(sys.argv[1],\"rb\"))'` here)."
    )

    package static let rules = [parseError]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        switch context.plist(subject.path) {
        case .success: return
        case .failure(.unreadable(let e)):
            context.report(EngineRules.unreadable, path: subject.path, message: "cannot read Info.plist: \(e.reason)")
        case .failure(let error):
            if let target = preprocessingTarget(of: subject.path, in: context), let line = directiveLine(subject.path, in: context) {
                // Xcode runs the C preprocessor over it first (issue 58): the #if/#define lines
                // are resolved with the target's definitions, which reswatch does not run.
                context.report(
                    EngineRules.notChecked, path: subject.path, line: line,
                    message:
                        "Info.plist is preprocessed (INFOPLIST_PREPROCESS = YES in \(target)): its # lines are resolved at build time with definitions reswatch does not have, so its keys were not checked"
                )
                return
            }
            context.report(
                Self.parseError, path: subject.path, line: error.line, message: "Info.plist does not parse: \(error.description)")
        }
    }

    /// The target that builds with this Info.plist and sets INFOPLIST_PREPROCESS = YES.
    func preprocessingTarget(of path: String, in context: EvaluationContext) -> String? {
        let project = context.project
        let yes = { (value: String?) in ["YES", "yes", "1", "true"].contains(value ?? "") }
        if project.infoPlist == path, yes(project.appSettings?.string("INFOPLIST_PREPROCESS")) { return project.targetName ?? "the app" }
        return project.otherTargets.first { $0.infoPlistFile == path && yes($0.settings?.string("INFOPLIST_PREPROCESS")) }?.name
    }

    /// The first line that is a preprocessor directive (`#if`, `#define`, `#include` …), 1-based.
    func directiveLine(_ path: String, in context: EvaluationContext) -> Int? {
        guard case .success(let bytes) = context.read(path) else { return nil }
        var line = 1
        var atStart = true
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                line += 1
                atStart = true
            } else if atStart, byte == UInt8(ascii: "#") {
                return line
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                atStart = false
            }
        }
        return nil
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "a valid XML plist passes",
            files: [
                "App/Info.plist": .text(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>CFBundleName</key>\n<string>App</string>\n</dict>\n</plist>\n"
                )
            ],
            passes: ["plist.parse-error"]),
        RuleExample(
            "an unclosed tag",
            files: [
                "App/Info.plist": .text(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>CFBundleName</key>\n<strin>App</string>\n</dict>\n</plist>\n"
                )
            ],
            triggers: ["plist.parse-error"]),
        RuleExample(
            "a preprocessed Info.plist (INFOPLIST_PREPROCESS = YES) with #ifdef lines is said unchecked, not broken",
            files: [
                "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                    buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos; INFOPLIST_PREPROCESS = YES;"),
                "App/Info.plist": .text(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n#ifdef BETA\n<key>CFBundleName</key>\n<string>App Beta</string>\n#else\n<key>CFBundleName</key>\n<string>App</string>\n#endif\n</dict>\n</plist>\n"
                ),
            ], triggers: ["project.not-checked"], passes: ["plist.parse-error"]),
        RuleExample(
            "the same #ifdef lines without INFOPLIST_PREPROCESS do not parse",
            files: [
                "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(
                    buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;"),
                "App/Info.plist": .text(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n#ifdef BETA\n<key>CFBundleName</key>\n<string>App Beta</string>\n#endif\n</dict>\n</plist>\n"
                ),
            ], triggers: ["plist.parse-error"]),
        RuleExample(
            "binary garbage", files: ["App/Info.plist": .bytes([0x00, 0xFF, 0x13, 0x37, 0xBE, 0xEF, 0x00, 0x01])],
            triggers: ["plist.parse-error"]),
    ]
}
