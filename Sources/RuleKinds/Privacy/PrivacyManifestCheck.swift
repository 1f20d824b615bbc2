import ProjectModel
import RuleKit
import SystemCalls

/// Walks one manifest's dictionary against Apple's tables (PrivacyTables), the TN3181 cases in
/// order: types, unknown keys, empty lists, tracking, categories and reasons, collected data.
struct PrivacyManifestCheck {
    let root: [String: PlistValue]
    /// The app's (or an extension's) own manifest, not a third-party SDK's.
    let isAppsOwn: Bool

    typealias K = PrivacyManifestKind

    func check(into findings: inout PrivacyFindings) {
        for key in root.keys.sorted() {
            guard let type = PrivacyTables.topLevelKeys[key] else {
                findings.add(K.invalid, "\(key) is not a privacy-manifest key (App Store Connect accepts only the documented keys)")
                continue
            }
            if !Self.has(root[key]!, type) { findings.add(K.invalid, "\(key) must be \(type.rawValue)") }
        }
        tracking(into: &findings)
        accessedAPIs(into: &findings)
        collectedData(into: &findings)
    }

    static func has(_ value: PlistValue, _ type: PrivacyTables.ValueType) -> Bool {
        switch (type, value) {
        case (.bool, .boolean), (.array, .array), (.string, .string), (.dictionary, .dictionary): true
        default: false
        }
    }

    func tracking(into findings: inout PrivacyFindings) {
        let tracks: Bool? = if case .boolean(let b)? = root["NSPrivacyTracking"] { b } else { nil }
        guard let domains = root["NSPrivacyTrackingDomains"]?.array else {
            if tracks == true { findings.add(K.invalid, "NSPrivacyTracking is true but NSPrivacyTrackingDomains lists no domain (TN3181)") }
            return
        }
        if tracks != true, !domains.isEmpty {
            let how = tracks == nil ? "absent" : "false"
            findings.add(K.trackingDomains, "NSPrivacyTrackingDomains lists \(domains.count) domain(s) but NSPrivacyTracking is \(how)")
            return  // one cause: the list must go, or tracking be declared; its entries are moot
        }
        if tracks == true, domains.isEmpty {
            findings.add(K.invalid, "NSPrivacyTracking is true but NSPrivacyTrackingDomains is empty (TN3181)")
        }
        for (i, domain) in domains.enumerated() {
            guard let text = domain.string else {
                findings.add(K.invalid, "NSPrivacyTrackingDomains[\(i)] is not a string")
                continue
            }
            if let why = Self.domainProblem(text) { findings.add(K.invalid, "NSPrivacyTrackingDomains[\(i)] \"\(text)\" \(why)") }
        }
    }

    /// TN3181: a top-level domain or subdomain, "no path and query; no trailing slash".
    static func domainProblem(_ domain: String) -> String? {
        if domain.isEmpty { return "is empty" }
        if domain.contains("://") { return "has a scheme (give the host name only)" }
        if domain.hasSuffix("/") { return "has a trailing slash" }
        if domain.contains("/") { return "has a path (give the host name only)" }
        if domain.contains("?") || domain.contains("#") { return "has a query" }
        if domain.contains(where: \.isWhitespace) { return "contains white space" }
        return nil
    }

    func accessedAPIs(into findings: inout PrivacyFindings) {
        guard let entries = root["NSPrivacyAccessedAPITypes"]?.array else { return }
        if entries.isEmpty { findings.add(K.invalid, "NSPrivacyAccessedAPITypes is empty (TN3181: remove it instead)") }
        for (i, entry) in entries.enumerated() {
            let at = "NSPrivacyAccessedAPITypes[\(i)]"
            guard let dict = entry.dictionary else {
                findings.add(K.invalid, "\(at) is not a dictionary")
                continue
            }
            for key in dict.keys.sorted() where PrivacyTables.accessedAPIKeys[key] == nil {
                findings.add(K.invalid, "\(at) has the unknown key \(key)")
            }
            guard let typeValue = dict["NSPrivacyAccessedAPIType"] else {
                findings.add(K.invalid, "\(at) has no NSPrivacyAccessedAPIType")
                continue
            }
            guard let category = typeValue.string else {
                findings.add(K.invalid, "\(at).NSPrivacyAccessedAPIType must be a string")
                continue
            }
            let approved = PrivacyTables.reasons[category]
            if approved == nil {
                let near =
                    PrivacyTables.reasons.keys.first { $0.lowercased() == category.lowercased() }.map { " (did you mean \($0)?)" } ?? ""
                findings.add(
                    K.categoryUnknown,
                    "\(at).NSPrivacyAccessedAPIType \"\(category)\" is not a required-reason API category\(near); the categories are \(PrivacyTables.reasons.keys.sorted().joined(separator: ", "))"
                )
            }
            guard let reasonsValue = dict["NSPrivacyAccessedAPITypeReasons"] else {
                findings.add(K.invalid, "\(at) has no NSPrivacyAccessedAPITypeReasons")
                continue
            }
            guard let reasons = reasonsValue.array else {
                findings.add(K.invalid, "\(at).NSPrivacyAccessedAPITypeReasons must be an array of reason codes")
                continue
            }
            if reasons.isEmpty { findings.add(K.invalid, "\(at).NSPrivacyAccessedAPITypeReasons is empty (TN3181)") }
            for (j, reasonValue) in reasons.enumerated() {
                guard let reason = reasonValue.string else {
                    findings.add(K.invalid, "\(at).NSPrivacyAccessedAPITypeReasons[\(j)] is not a string")
                    continue
                }
                // An unknown category is its own finding; its reasons cannot be judged against it.
                guard let approved else { continue }
                if !approved.contains(reason) {
                    let belongs =
                        PrivacyTables.category(of: reason).map { "; \(reason) is a reason of \($0)" }
                        ?? "; \(reason) is no approved reason code"
                    findings.add(K.reasonInvalid, "\(at): \"\(reason)\" is not an approved reason for \(category)\(belongs)")
                } else if isAppsOwn, PrivacyTables.sdkOnlyReasons.contains(reason) {
                    findings.add(
                        K.sdkOnlyReason,
                        "\(at): \"\(reason)\" (\(category)) is a reason for third-party SDKs only, in the app's own manifest")
                }
            }
        }
    }

    func collectedData(into findings: inout PrivacyFindings) {
        guard let entries = root["NSPrivacyCollectedDataTypes"]?.array else { return }
        for (i, entry) in entries.enumerated() {
            let at = "NSPrivacyCollectedDataTypes[\(i)]"
            guard let dict = entry.dictionary else {
                findings.add(K.invalid, "\(at) is not a dictionary")
                continue
            }
            for key in PrivacyTables.collectedDataKeys.keys.sorted() {
                guard let value = dict[key] else {
                    findings.add(K.invalid, "\(at) has no \(key)")
                    continue
                }
                let type = PrivacyTables.collectedDataKeys[key]!
                if !Self.has(value, type) { findings.add(K.invalid, "\(at).\(key) must be \(type.rawValue)") }
            }
            for key in dict.keys.sorted() where PrivacyTables.collectedDataKeys[key] == nil {
                findings.add(K.invalid, "\(at) has the unknown key \(key)")
            }
            if let type = dict["NSPrivacyCollectedDataType"]?.string, !PrivacyTables.dataTypes.contains(type) {
                findings.add(K.invalid, "\(at).NSPrivacyCollectedDataType \"\(type)\" is not one of Apple's data types")
            }
            for (j, purpose) in (dict["NSPrivacyCollectedDataTypePurposes"]?.array ?? []).enumerated() {
                guard let text = purpose.string, PrivacyTables.purposes.contains(text) else {
                    findings.add(
                        K.invalid,
                        "\(at).NSPrivacyCollectedDataTypePurposes[\(j)] \(purpose.string.map { "\"\($0)\"" } ?? "") is not one of Apple's purposes"
                    )
                    continue
                }
            }
        }
    }
}

/// Where a manifest belongs.
enum PrivacyManifests {
    /// Third-party code ships its own manifest: inside a framework, a bundle, a Swift package
    /// (a folder with Package.swift), CocoaPods, Carthage or node_modules.
    static func isAppsOwn(_ path: String, in context: EvaluationContext) -> Bool {
        let components = path.split(separator: "/")
        for c in components.dropLast() {
            if c.hasSuffix(".framework") || c.hasSuffix(".xcframework") || c.hasSuffix(".bundle") { return false }
            if ["Pods", "Carthage", "node_modules", "SourcePackages", ".build"].contains(String(c)) { return false }
        }
        var folder = RelativePath.parent(path)
        while RelativePath.isWithin(folder, context.project.directory) {
            if context.exists(RelativePath.join(folder, "Package.swift")) { return false }
            if folder == context.project.directory || folder.isEmpty { break }
            folder = RelativePath.parent(folder)
        }
        return true
    }
}
