import Findings
import RuleEngine

/// `plist.parse-error`: Info.plist files parse as XML, binary or OpenStep property lists.
public struct PlistSyntaxKind: RuleKind {
    public static let name = "plist-syntax"
    public static let summary = "Checks that Info.plist files are valid property lists."
    public static let subjects: Set<SubjectKind> = [.infoPlist]

    public static let parseError = RuleInfo(
        id: "plist.parse-error", severity: .error, code: "ITMS-90037",
        summary: "Info.plist is not a valid XML or binary property list.",
        rationale: "Xcode cannot process it and App Store Connect rejects the bundle (ITMS-90037).",
        fix:
            "Fix the syntax at the reported line (`plutil -lint` on a Mac; `python3 -c 'import plistlib,sys; plistlib.load(open(sys.argv[1],\"rb\"))'` here)."
    )

    public static let rules = [parseError]

    public init(parameters: ModuleParameters) {}

    public func evaluate(_ subject: Subject, in context: EvaluationContext) {
        switch context.plist(subject.path) {
        case .success: return
        case .failure(.unreadable(let e)):
            context.report(EngineRules.unreadable, path: subject.path, message: "cannot read Info.plist: \(e.reason)")
        case .failure(let error):
            context.report(
                Self.parseError, path: subject.path, line: error.line, message: "Info.plist does not parse: \(error.description)")
        }
    }

    public static let examples: [RuleExample] = [
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
            "binary garbage", files: ["App/Info.plist": .bytes([0x00, 0xFF, 0x13, 0x37, 0xBE, 0xEF, 0x00, 0x01])],
            triggers: ["plist.parse-error"]),
    ]
}
