import Findings

/// `plist.orientations` (ITMS-90474) is not repaired: supporting rotation on iPad or opting out of
/// multitasking is the person's choice. The plan says both ways.
enum OrientationsAdvice: RepairKind {
    static let rules: Set<String> = ["plist.orientations"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        let missing = finding.message.matches(of: /UIInterfaceOrientation[A-Za-z]+/).map { String($0.output) }
        let list = missing.isEmpty ? "the missing orientations" : missing.joined(separator: ", ")
        return .leave(
            "your choice: support rotation on iPad by adding \(list) to UISupportedInterfaceOrientations~ipad (or UISupportedInterfaceOrientations), or opt out of iPad multitasking with <key>UIRequiresFullScreen</key><true/>"
        )
    }
}
