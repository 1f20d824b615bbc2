import Findings
import Foundation

/// `extension.plist-keys` for the obsolete `NSExtensionPointName` / `NSExtensionPointVersion`
/// (ITMS-90363): the key and its value are removed from the extension's `NSExtension` (or its
/// attributes); nothing reads them. The other causes of the finding (a value of the wrong type, a
/// missing script) are the person's to fix.
enum ExtensionObsoleteKeysRepair: RepairKind {
    static let rules: Set<String> = ["extension.plist-keys"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard let match = finding.message.firstMatch(of: /obsolete key (NSExtensionPointName|NSExtensionPointVersion)/) else {
            return .leave("write the value as its type, or add the script to the extension: which is meant is the person's call")
        }
        let key = String(match.1)
        guard let bytes = context.read(finding.path) else { return .leave("\(finding.path) cannot be read as a regular file") }
        if let refusal = PlistText.refusal(bytes) { return .leave(refusal) }
        guard var plist = PlistText.parse(bytes), var nsExtension = plist["NSExtension"] as? [String: Any] else {
            return .leave("it has no NSExtension dictionary")
        }
        if nsExtension[key] != nil {
            nsExtension[key] = nil
        } else if var attributes = nsExtension["NSExtensionAttributes"] as? [String: Any], attributes[key] != nil {
            attributes[key] = nil
            nsExtension["NSExtensionAttributes"] = attributes
        } else {
            return .alreadyRepaired
        }
        plist["NSExtension"] = nsExtension
        guard let new = PlistText.removingKey(key, in: bytes, expected: plist) else {
            return .leave("its text is not laid out as reswatch can edit without touching other bytes")
        }
        return .repair(title: "Remove the obsolete \(key) from \(finding.path)", changes: [context.write(finding.path, new)])
    }
}
