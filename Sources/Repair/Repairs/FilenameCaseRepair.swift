import Findings
import RuleEngine
import SystemCalls

/// `icon.file-missing` where the file is there under another case (`Icon.PNG` named `icon.png`):
/// the Contents.json name is corrected to the file's. A name with no such file is left: reswatch
/// cannot know what the person meant to add.
enum FilenameCaseRepair: RepairKind {
    static let rules: Set<String> = ["icon.file-missing"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        // The case variant is shown on the file that exists; the plain one on Contents.json.
        let set = RelativePath.name(finding.path) == "Contents.json" ? RelativePath.parent(finding.path) : RelativePath.parent(finding.path)
        let contents = RelativePath.join(set, "Contents.json")
        guard finding.message.contains("found only on a case-insensitive disk") else {
            // An app icon the entry names but the set lacks: made from the set's master.
            if set.hasSuffix(".appiconset"), let match = finding.message.firstMatch(of: /names (.+?) for the (.+?) slot/),
                let slot = IconSizeRepair.Slot(String(match.2))
            {
                return IconSizeRepair.make(named: String(match.1), for: slot, set: set, in: context)
            }
            return .leave("the file is not in the set: add it (exported at the slot's size), or remove the entry in Xcode")
        }
        guard let bytes = context.read(contents), let entries = ContentsText.entries(bytes) else {
            return .leave("\(contents) cannot be read or followed as text")
        }
        let present = context.list(set)
        let byLowercase = Dictionary(present.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var new = bytes
        var fixes: [String] = []
        for name in Set(entries.compactMap { $0.object["filename"] as? String }).sorted() where !present.contains(name) {
            guard let actual = byLowercase[name.lowercased()], let renamed = ContentsText.renamingFile(new, from: name, to: actual) else {
                continue
            }
            new = renamed
            fixes.append("\(name) → \(actual)")
        }
        if fixes.isEmpty { return .alreadyRepaired }
        return .repair(
            title: "Write the file names of \(RelativePath.name(set)) as the files are named: \(fixes.joined(separator: ", "))",
            changes: [context.write(contents, new)])
    }
}
