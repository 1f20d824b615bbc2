import Findings

/// `plist.orientations` (ITMS-90474) is not repaired: which orientations the app supports is the
/// person's choice. The plan says what to add; it no longer offers UIRequiresFullScreen, which is
/// deprecated and no longer opts out of resizing once built with the iOS 27 SDK (TN3192; issue 59).
enum OrientationsAdvice: RepairKind {
    static let rules: Set<String> = ["plist.orientations"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        let missing = finding.message.matches(of: /UIInterfaceOrientation[A-Za-z]+/).map { String($0.output) }
        let list = missing.isEmpty ? "the missing orientations" : missing.joined(separator: ", ")
        return .leave(
            "your choice: support rotation on iPad by adding \(list) to UISupportedInterfaceOrientations~ipad (or UISupportedInterfaceOrientations); UIRequiresFullScreen, the old opt-out, is deprecated and no longer opts out with the iOS 27 SDK (TN3192)"
        )
    }
}
