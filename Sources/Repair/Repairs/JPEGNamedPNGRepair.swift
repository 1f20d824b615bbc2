import Findings
import RuleEngine

/// `image.not-png` where the file holds JPEG data, in an image set: the file is renamed to `.jpg`
/// (image sets take JPEG) and its Contents.json entry follows. In an app icon or launch image set
/// the image must be a PNG: that is re-encoding, which this repair does not do.
enum JPEGNamedPNGRepair: RepairKind {
    static let rules: Set<String> = ["image.not-png"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        let set = RelativePath.parent(finding.path)
        let name = RelativePath.name(finding.path)
        guard finding.message.contains("JPEG data") else {
            return .leave("re-export it as a PNG (reswatch renames only JPEG data, which image sets take as .jpg)")
        }
        guard set.hasSuffix(".imageset") else {
            return .leave("an app icon or launch image must be a PNG: re-export it as one")
        }
        let contents = RelativePath.join(set, "Contents.json")
        let base = name.lowercased().hasSuffix(".png") ? String(name.dropLast(4)) : name
        let target = RelativePath.join(set, base + ".jpg")
        guard !context.exists(target) else {
            return .leave("\(RelativePath.name(target)) is already there: rename or re-export it yourself")
        }
        guard let bytes = context.read(contents), let new = ContentsText.renamingFile(bytes, from: name, to: base + ".jpg") else {
            return .leave("\(contents) does not name it as text reswatch can follow")
        }
        return .repair(
            title: "Rename \(name) to \(base).jpg (it is JPEG data) and name it so in Contents.json",
            changes: [context.rename(finding.path, target), context.write(contents, new)])
    }
}
