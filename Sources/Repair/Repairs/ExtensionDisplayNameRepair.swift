import Findings

/// `plist.extension-keys` (ITMS-90360) where an extension's Info.plist has no
/// `CFBundleDisplayName`: the key is added with the app's name (its `CFBundleDisplayName`, else
/// `CFBundleName`, when written out), else `$(PRODUCT_NAME)`, which Xcode defines for every target.
/// An empty value or an undefined variable is left: which setting is meant is the person's call.
enum ExtensionDisplayNameRepair: RepairKind {
    static let rules: Set<String> = ["plist.extension-keys"]

    static func repair(_ finding: Diagnostic, in context: RepairContext) -> RepairOutcome {
        guard finding.message.hasSuffix("CFBundleDisplayName is missing") else {
            return .leave("set the key's value in the extension's Info.plist, or define the variable in its build settings")
        }
        guard let bytes = context.read(finding.path) else { return .leave("\(finding.path) cannot be read as a regular file") }
        if let refusal = PlistText.refusal(bytes) { return .leave(refusal) }
        if PlistText.parse(bytes)?["CFBundleDisplayName"] != nil { return .alreadyRepaired }
        let name = appName(context, besides: finding.path) ?? "$(PRODUCT_NAME)"
        let lines = ["<key>CFBundleDisplayName</key>", "<string>\(PlistText.escaped(name))</string>"]
        guard let new = PlistText.addingToTopLevelDictionary(bytes, lines: lines),
            PlistText.parse(new)?["CFBundleDisplayName"] as? String == name
        else { return .leave("its text is not laid out as reswatch can edit without touching other bytes") }
        return .repair(title: "Add CFBundleDisplayName = \(name) to \(finding.path)", changes: [context.write(finding.path, new)])
    }

    /// The app's own name, when its Info.plist writes it out (not a build-setting variable).
    static func appName(_ context: RepairContext, besides extensionPlist: String) -> String? {
        guard let app = context.project(of: extensionPlist)?.infoPlist, app != extensionPlist, let bytes = context.read(app),
            let plist = PlistText.parse(bytes)
        else { return nil }
        for key in ["CFBundleDisplayName", "CFBundleName"] {
            if let value = plist[key] as? String, !value.isEmpty, !value.contains("$(") { return value }
        }
        return nil
    }
}
