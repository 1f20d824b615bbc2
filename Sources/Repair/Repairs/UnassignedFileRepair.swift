import Findings
import ImageFacts
import ProjectModel
import RuleEngine
import SystemCalls

/// `icon.unassigned` on a file of an icon set: when exactly one entry without a `filename`
/// expects the file's pixel size, the file is named there. Two such entries (an iPhone and an
/// iPad slot of the same size), or none, leave it: which slot was meant is the person's call.
enum UnassignedFileRepair: RepairKind {
    static let rules: Set<String> = ["icon.unassigned"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard RelativePath.name(finding.path) != "Contents.json" else {
            return .leave("an entry that maps to no valid slot: which slot was meant is yours to say (or remove the entry)")
        }
        guard let (contents, new, title) = assignment(file: finding.path, in: context) else {
            return .leave("no single empty slot of its pixel size: assign it in Xcode, or delete it")
        }
        return .repair(title: title, changes: [context.write(contents, new)])
    }

    /// The Contents.json edit that names `file` in the one empty entry of its pixel size.
    static func assignment(file: String, in context: RepairContext) -> (contents: String, bytes: [UInt8], title: String)? {
        let contents = RelativePath.join(RelativePath.parent(file), "Contents.json")
        let name = RelativePath.name(file)
        guard let header = (try? PNGReader.inspect(path: context.absolute(file)))?.header, let bytes = context.read(contents),
            let entries = ContentsText.entries(bytes)
        else { return nil }
        var candidates: [(Range<Int>, String)] = []
        for (span, entry) in entries where entry["filename"] == nil {
            guard let size = entry["size"] as? String, let pixels = pixels(size: size, scale: entry["scale"] as? String ?? "1x") else {
                continue
            }
            if pixels == (header.width, header.height) {
                candidates.append((span, "\(entry["idiom"] as? String ?? "universal") \(size) @\(entry["scale"] as? String ?? "1x")"))
            }
        }
        guard candidates.count == 1, let (span, slot) = candidates.first else { return nil }
        let indent = TextLayout.indentation(bytes, at: span.lowerBound) + "  "
        let nl = TextLayout.newline(bytes)
        let new = TextEdit.apply(
            [
                TextEdit(
                    start: span.lowerBound + 1, end: span.lowerBound + 1,
                    newText: "\(nl)\(indent)\"filename\" : \(ContentsText.quoted(name)),")
            ],
            to: bytes)
        return (contents, new, "Assign \(name) to the \(slot) slot in Contents.json")
    }

    /// "60x60" at "2x" → 120×120; "83.5x83.5" at "2x" → 167×167.
    static func pixels(size: String, scale: String) -> (Int, Int)? {
        let parts = size.split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), scale.hasSuffix("x"),
            let s = Double(scale.dropLast())
        else { return nil }
        // Hostile sizes ("1e300x1") give no slot rather than a trap.
        guard let pw = CheckedNumber.rounded(w * s, in: 1...CheckedNumber.maximumPixels),
            let ph = CheckedNumber.rounded(h * s, in: 1...CheckedNumber.maximumPixels)
        else { return nil }
        return (pw, ph)
    }
}
