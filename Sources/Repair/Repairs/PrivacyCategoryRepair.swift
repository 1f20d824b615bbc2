import Findings
import ProjectModel

/// `privacy.api-undeclared` (ITMS-91053): the category is added to the manifest's
/// `NSPrivacyAccessedAPITypes` with a placeholder reason that names the approved reasons to choose
/// from. reswatch never guesses why an app uses an API: until the person picks one,
/// `privacy.api-reason-invalid` says so.
enum PrivacyCategoryRepair: RepairKind {
    static let rules: Set<String> = ["privacy.api-undeclared"]

    static func placeholder(_ category: String) -> String {
        "CHOOSE-ONE-OF " + (PrivacyTables.reasons[category] ?? []).sorted().joined(separator: " ")
    }

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard let match = finding.message.firstMatch(of: /NSPrivacyAccessedAPICategory[A-Za-z]+/),
            PrivacyTables.reasons[String(match.output)] != nil
        else { return .leave("the finding names no category reswatch knows") }
        let category = String(match.output)
        guard let bytes = context.read(finding.path) else { return .leave("\(finding.path) cannot be read as a regular file") }
        if let refusal = PlistText.refusal(bytes) { return .leave(refusal) }
        let declared = (PlistText.parse(bytes)?["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []).compactMap {
            $0["NSPrivacyAccessedAPIType"] as? String
        }
        if declared.contains(category) { return .alreadyRepaired }
        let entry = [
            "<dict>", "\t<key>NSPrivacyAccessedAPIType</key>", "\t<string>\(category)</string>",
            "\t<key>NSPrivacyAccessedAPITypeReasons</key>", "\t<array>", "\t\t<string>\(placeholder(category))</string>", "\t</array>",
            "</dict>",
        ]
        guard let new = adding(entry, to: bytes),
            (PlistText.parse(new)?["NSPrivacyAccessedAPITypes"] as? [[String: Any]])?.contains(where: {
                $0["NSPrivacyAccessedAPIType"] as? String == category
            }) == true
        else { return .leave("its text is not laid out as reswatch can edit without touching other bytes") }
        return .repair(
            title:
                "Declare \(category) in \(finding.path) with a placeholder reason: replace it with the approved reason that is true for the app (\((PrivacyTables.reasons[category] ?? []).sorted().joined(separator: ", ")))",
            changes: [context.write(finding.path, new)])
    }

    /// The entry added at the end of the `NSPrivacyAccessedAPITypes` array (the key and array are
    /// added when the manifest has none).
    static func adding(_ entry: [String], to bytes: [UInt8]) -> [UInt8]? {
        let nl = TextLayout.newline(bytes)
        guard let key = TextLayout.offset(of: "<key>NSPrivacyAccessedAPITypes</key>", in: bytes) else {
            return PlistText.addingToTopLevelDictionary(
                bytes, lines: ["<key>NSPrivacyAccessedAPITypes</key>", "<array>"] + entry.map { "\t" + $0 } + ["</array>"])
        }
        let indent = TextLayout.indentation(bytes, at: key)
        guard let open = TextLayout.offset(of: "<array", in: bytes, from: key) else { return nil }
        if bytes[open..<min(open + 8, bytes.count)].elementsEqual(Array("<array/>".utf8)) {
            let body = entry.map { indent + "\t" + $0 + nl }.joined()
            return TextEdit.apply([TextEdit(start: open, end: open + 8, newText: "<array>" + nl + body + indent + "</array>")], to: bytes)
        }
        // The array's own closing tag: count nested arrays (each entry holds one).
        var depth = 0
        var i = open
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                if bytes[i...].starts(with: Array("<array/>".utf8)) {
                    i += 8
                    continue
                }
                if bytes[i...].starts(with: Array("<array".utf8)) { depth += 1 }
                if bytes[i...].starts(with: Array("</array>".utf8)) {
                    depth -= 1
                    if depth == 0 {
                        var lineStart = i
                        while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
                        let onOwnLine = lineStart == 0 || bytes[lineStart - 1] == 0x0A
                        let body = entry.map { indent + "\t" + $0 + nl }.joined()
                        return TextEdit.apply(
                            [
                                TextEdit(
                                    start: onOwnLine ? lineStart : i, end: onOwnLine ? lineStart : i,
                                    newText: onOwnLine ? body : nl + body + indent)
                            ], to: bytes)
                    }
                }
            }
            i += 1
        }
        return nil
    }
}
