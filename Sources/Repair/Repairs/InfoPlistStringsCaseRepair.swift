import Findings
import SystemCalls

/// `lproj.infoplist-name-case`: a localized Info.plist table named in another case
/// (`infoPlist.strings`), which iOS never reads, is renamed `InfoPlist.strings` in every `.lproj`
/// folder beside it, and an Xcode project that names it follows: every whole-word occurrence of
/// the name in its `project.pbxproj` (the variant group, its build file, each language's path) is
/// written the new way. Left when a folder already has an `InfoPlist.strings` (two tables to
/// merge), or when the project names the file in more places than there are such folders (a
/// table of the same name elsewhere that the rename would break).
enum InfoPlistStringsCaseRepair: RepairKind {
    static let rules: Set<String> = ["lproj.infoplist-name-case"]
    static let right = "InfoPlist.strings"

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        let name = RelativePath.name(finding.path)
        let lproj = RelativePath.parent(finding.path)
        let folder = RelativePath.parent(lproj)
        guard name.lowercased() == right.lowercased(), name != right, lproj.hasSuffix(".lproj") else {
            return .leave("it is not a case variant of InfoPlist.strings in an .lproj folder")
        }
        if !context.exists(finding.path) { return .alreadyRepaired }
        // Every language's table of that name beside it: renamed together, as the project names them together.
        let languages = context.folders(in: folder).filter { $0.hasSuffix(".lproj") }
        var files: [String] = []
        for language in languages {
            let path = RelativePath.join(RelativePath.join(folder, language), name)
            guard context.exists(path) else { continue }
            let target = RelativePath.join(RelativePath.join(folder, language), right)
            if context.exists(target) {
                return .leave("\(target) exists as well: merge the two tables by hand, then delete \(path)")
            }
            files.append(path)
        }
        var changes = files.map { context.rename($0, RelativePath.join(RelativePath.parent($0), right)) }
        let project = context.project(of: finding.path)?.directory ?? folder
        for pbxproj in context.pbxprojs(in: project) {
            guard let bytes = context.read(pbxproj) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.contains(name) else { continue }
            let paths = text.components(separatedBy: ".lproj/\(name)").count - 1
            guard paths <= files.count else {
                return .leave(
                    "\(pbxproj) names \(name) in \(paths) .lproj folders, more than the \(files.count) beside \(finding.path): rename it in Xcode"
                )
            }
            guard let new = renamingWord(text, from: name, to: right) else {
                return .leave("\(pbxproj) names \(name) in a way reswatch cannot follow as text: rename it in Xcode")
            }
            changes.append(context.write(pbxproj, Array(new.utf8)))
        }
        let shown = files.count == 1 ? files[0] : "\(files.count) tables (\(files.joined(separator: ", ")))"
        return .repair(title: "Rename \(shown) to \(right), which iOS reads", changes: changes)
    }

    /// `text` with every occurrence of `name` that stands as a whole name (between separators of
    /// the pbxproj syntax: `/`, space, quote, `;`, `*`, `=`, tab, line end) written `to`; nil when
    /// an occurrence is part of a longer name.
    static func renamingWord(_ text: String, from name: String, to: String) -> String? {
        let separators: Set<Character> = ["/", " ", "\"", ";", "*", "=", "\t", "\n", "(", ")", ","]
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: name) {
            let before: Character? = range.lowerBound == rest.startIndex ? out.last : rest[rest.index(before: range.lowerBound)]
            let after: Character? = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
            guard before.map(separators.contains) ?? true, after.map(separators.contains) ?? true else { return nil }
            out += rest[..<range.lowerBound] + to
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
