import ProjectModel

/// A target's bundle identifier from its build settings.
enum BundleIdentifier {
    /// A resolved identifier, or nil when it cannot be known.
    /// With every .xcconfig of the target read, a `$(VAR)` nothing defines is empty, as
    /// xcodebuild expands it (`${BUNDLE_ID_SUFFIX}` of a configuration that sets none); with one
    /// not read, it is not known.
    static func of(_ settings: ResolvedBuildSettings?, incomplete: Bool) -> String? {
        guard let settings, settings.values["PRODUCT_BUNDLE_IDENTIFIER"] != nil else { return nil }
        let resolved =
            incomplete ? settings.string("PRODUCT_BUNDLE_IDENTIFIER") : settings.stringUndefinedAsEmpty("PRODUCT_BUNDLE_IDENTIFIER")
        guard let value = resolved, !value.isEmpty, !value.contains("$"), !value.contains(" ") else { return nil }
        return value
    }
}
