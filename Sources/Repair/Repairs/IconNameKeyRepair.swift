import Findings

/// `plist.icon-name-missing` (ITMS-90713): adds `CFBundleIconName` naming the app icon set, as a
/// text edit of the XML Info.plist.
enum IconNameKeyRepair: RepairKind {
    static let rules: Set<String> = ["plist.icon-name-missing"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard let bytes = context.read(finding.path) else { return .leave("\(finding.path) cannot be read as a regular file") }
        if let refusal = PlistText.refusal(bytes) { return .leave(refusal) }
        if PlistText.parse(bytes)?["CFBundleIconName"] != nil { return .alreadyRepaired }
        // The set the app's icons come from: the project's setting, else the one the finding names.
        let named = finding.message.firstMatch(of: /come from (.+?)\.appiconset/).map { String($0.1) }
        let name = context.project(of: finding.path)?.appIconName ?? named ?? "AppIcon"
        let lines = ["<key>CFBundleIconName</key>", "<string>\(PlistText.escaped(name))</string>"]
        guard let new = PlistText.addingToTopLevelDictionary(bytes, lines: lines),
            PlistText.parse(new)?["CFBundleIconName"] as? String == name
        else { return .leave("its text is not laid out as reswatch can edit without touching other bytes: add the key in Xcode") }
        return .repair(title: "Add CFBundleIconName = \(name) to \(finding.path)", changes: [context.write(finding.path, new)])
    }
}
