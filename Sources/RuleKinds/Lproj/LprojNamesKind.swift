import Findings
import RuleKit
import SystemCalls

/// `lproj.invalid-name`: `.lproj` folders are named by a language (BCP 47 / ISO 639), `Base`, or a
/// legacy English language name.
package struct LprojNamesKind: RuleKind {
    package static let name = "lproj-names"
    package static let summary = "Checks that .lproj folder names are language identifiers iOS recognises."
    package static let subjects: Set<SubjectKind> = [.localization]

    package static let invalid = RuleInfo(
        id: "lproj.invalid-name", severity: .warning,
        summary:
            "An .lproj folder whose name is not a language code (ISO 639-1/-2, optional script and region), Base, or a legacy English name.",
        rationale:
            "iOS picks localizations by language identifier; a folder it cannot parse (\"en-us\", \"Chinese\", \"jp\") is never used, so users see the fallback language.",
        fix:
            "Rename the folder to a language identifier such as en, pt-BR, zh-Hans, es-419 (case matters: region upper-case, script title-case)."
    )
    package static let rules = [invalid]
    package static let parameters = [
        "languages": "ISO 639-1 two-letter codes accepted", "legacy-names": "legacy English names accepted (English, French …)",
    ]

    let languages: Set<String>
    let legacyNames: Set<String>

    package init(parameters p: ModuleParameters) throws(ModuleError) {
        languages = Set(try p.strings("languages") ?? [])
        legacyNames = Set(try p.strings("legacy-names") ?? [])
        guard !languages.isEmpty else { throw p.error("lproj-names: give the languages: list") }
    }

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let folder = RelativePath.name(subject.path)
        let name = String(folder.dropLast(".lproj".count))
        if let problem = problem(with: name) {
            // Shown on a file of the folder (its first by name): a folder alone was anchored on the
            // project file that declares it (project.yml:1), not where the rename happens.
            let first = ((try? context.list(subject.path).get()) ?? []).filter { !$0.isDirectory }.map(\.name).min()
            context.report(
                Self.invalid, path: first.map { RelativePath.join(subject.path, $0) } ?? subject.path, message: "\(folder): \(problem)",
                related: [subject.path])
        }
    }

    /// Why `name` is not a usable identifier, or nil when it is.
    func problem(with name: String) -> String? {
        if name == "Base" || legacyNames.contains(name) { return nil }
        let parts = name.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, !language.isEmpty else { return "empty language code" }
        let isLetters = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isLetter } }
        if language.count == 2 {
            guard language == language.lowercased() else { return "the language code \"\(language)\" must be lower-case" }
            guard languages.contains(String(language)) else { return "\"\(language)\" is not an ISO 639-1 language code" }
        } else if language.count == 3 {
            guard isLetters(language), language == language.lowercased() else { return "\"\(language)\" is not an ISO 639-2 language code" }
        } else {
            return "\"\(name)\" is not a language code" + (name.first?.isUppercase == true ? " or a legacy language name" : "")
        }
        for part in parts.dropFirst() {
            if part.count == 4, isLetters(part) {
                guard part.first!.isUppercase, part.dropFirst() == part.dropFirst().lowercased() else {
                    return "the script \"\(part)\" must be title-case (\(part.prefix(1).uppercased() + part.dropFirst().lowercased()))"
                }
            } else if part.count == 2, isLetters(part) {
                guard part == part.uppercased() else { return "the region \"\(part)\" must be upper-case (e.g. \(part.uppercased()))" }
            } else if part.count == 3, part.allSatisfy(\.isNumber) {
                continue
            } else {
                return "\"\(part)\" is neither a script (Hans) nor a region (BR, 419)"
            }
        }
        return nil
    }

    package static let examples: [RuleExample] = [
        RuleExample(
            "language, script and region forms",
            files: [
                "App/en.lproj/InfoPlist.strings": .text(""), "App/pt-BR.lproj/InfoPlist.strings": .text(""),
                "App/zh-Hans.lproj/InfoPlist.strings": .text(""), "App/es-419.lproj/InfoPlist.strings": .text(""),
                "App/Base.lproj/Main.storyboard": .text(""), "App/English.lproj/InfoPlist.strings": .text(""),
                "App/en_GB.lproj/InfoPlist.strings": .text(""), "App/haw.lproj/InfoPlist.strings": .text(""),
            ], passes: ["lproj.invalid-name"]),
        RuleExample("a lower-case region", files: ["App/en-us.lproj/InfoPlist.strings": .text("")], triggers: ["lproj.invalid-name"]),
        RuleExample(
            "a country code used as a language", files: ["App/jp.lproj/InfoPlist.strings": .text("")], triggers: ["lproj.invalid-name"]),
        RuleExample(
            "a language name that is not a legacy one", files: ["App/Chinese.lproj/InfoPlist.strings": .text("")],
            triggers: ["lproj.invalid-name"]),
    ]
}
