import Findings

/// `launch.storyboard-missing` where `UILaunchStoryboardName` carries the file's extension
/// (`LaunchScreen.storyboard`): iOS looks the name up without it, so the extension is dropped.
enum StoryboardExtensionRepair: RepairKind {
    static let rules: Set<String> = ["launch.storyboard-missing"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard let bytes = context.read(finding.path), PlistText.refusal(bytes) == nil else {
            return .leave("add the storyboard, or name the one the project has")
        }
        let edits = edits(bytes)
        if edits.isEmpty { return .leave("add the storyboard, or name the one the project has") }
        return .repair(
            title: "Write \(edits.map(\.title).joined(separator: ", ")) without the extension",
            changes: [context.write(finding.path, TextEdit.apply(edits.map(\.edit), to: bytes))])
    }

    /// The edits that drop the extension of each `UILaunchStoryboardName` value that has one.
    static func edits(_ bytes: [UInt8]) -> [(title: String, edit: TextEdit)] {
        guard let text = String(validating: bytes, as: UTF8.self) else { return [] }
        var out: [(String, TextEdit)] = []
        for key in ["UILaunchStoryboardName", "UILaunchStoryboardName~iphone", "UILaunchStoryboardName~ipad"] {
            guard let keyRange = text.range(of: "<key>\(key)</key>") else { continue }
            let after = text[keyRange.upperBound...]
            guard let open = after.range(of: "<string>"), after[after.startIndex..<open.lowerBound].allSatisfy(\.isWhitespace),
                let close = after[open.upperBound...].range(of: "</string>")
            else { continue }
            let value = String(after[open.upperBound..<close.lowerBound])
            guard let dot = value.lastIndex(of: "."), [".storyboard", ".xib", ".storyboardc", ".nib"].contains(String(value[dot...]))
            else { continue }
            let start = text.utf8.distance(from: text.utf8.startIndex, to: open.upperBound)
            let end = text.utf8.distance(from: text.utf8.startIndex, to: close.lowerBound)
            out.append(("\(key) as \"\(value[..<dot])\"", TextEdit(start: start, end: end, newText: String(value[..<dot]))))
        }
        return out
    }
}
