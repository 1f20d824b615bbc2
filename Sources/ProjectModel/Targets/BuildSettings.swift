/// Build settings resolved the way xcodebuild resolves them for one target in one configuration,
/// each value with the place it came from.
///
/// Levels, lowest precedence first: Xcode's defaults, the project configuration's base
/// `.xcconfig`, the project configuration, the target configuration's base `.xcconfig`, the
/// target configuration. At each level conditional assignments that match the iOS device SDK
/// (`KEY[sdk=iphoneos*]`) win over unconditional ones; `$(inherited)` is the value of the levels
/// below (or of an earlier assignment in the same xcconfig); `$(VAR)` / `${VAR}` are expanded
/// against the final settings, Xcode's built-in ones (TARGET_NAME, SRCROOT, …) and the defaults.
public struct ResolvedBuildSettings: Sendable, Hashable {
    public struct Value: Sendable, Hashable {
        /// The raw value (references not yet expanded).
        public let raw: String
        public let origin: SettingOrigin
    }

    public private(set) var values: [String: Value] = [:]
    /// Built-in settings Xcode sets itself (TARGET_NAME, PROJECT_NAME, SRCROOT, CONFIGURATION …).
    public let builtins: [String: String]

    /// Xcode's documented defaults for an iOS target, for the settings reswatch reads.
    public static let iosDefaults: [String: String] = [
        "TARGETED_DEVICE_FAMILY": "1",
        "PRODUCT_NAME": "$(TARGET_NAME)",
        "ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS": "NO",
        "GENERATE_INFOPLIST_FILE": "NO",
    ]

    /// - Parameters:
    ///   - levels: assignments per level, lowest precedence first.
    ///   - sdk: the SDK conditions are matched against (`iphoneos` for what ships).
    public init(
        levels: [[SettingAssignment]], builtins: [String: String], defaults: [String: String] = iosDefaults, sdk: String = "iphoneos",
        configuration: String? = nil
    ) {
        self.builtins = builtins
        for (key, value) in defaults { values[key] = Value(raw: value, origin: .xcodeDefault) }
        for level in levels {
            var atLevel: [String: Value] = [:]
            // Unconditional assignments first, in order; then the conditional ones that match.
            let plain = level.filter { $0.conditions.isEmpty }
            let conditional = level.filter {
                !$0.conditions.isEmpty && Self.matches($0.conditions, sdk: sdk, configuration: configuration)
            }
            for assignment in plain + conditional {
                let below = atLevel[assignment.key] ?? values[assignment.key]
                let raw = Self.replacingInherited(in: assignment.value, with: below?.raw ?? "")
                atLevel[assignment.key] = Value(raw: raw, origin: assignment.origin)
            }
            for (key, value) in atLevel { values[key] = value }
        }
    }

    static func matches(_ conditions: [String: String], sdk: String, configuration: String?) -> Bool {
        conditions.allSatisfy { key, pattern in
            switch key {
            case "sdk": return Self.glob(pattern, sdk)
            case "arch": return Self.glob(pattern, "arm64")
            case "config": return configuration.map { Self.glob(pattern, $0) } ?? false
            default: return false  // a condition reswatch cannot judge: not assumed true
            }
        }
    }

    /// Xcode's condition patterns: a trailing or inner `*` matches any run.
    static func glob(_ pattern: String, _ value: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 { return pattern == value }
        var rest = Substring(value)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for (i, part) in parts.enumerated().dropFirst() {
            if i == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let r = rest.range(of: part) else { return false }
            rest = rest[r.upperBound...]
        }
        return true
    }

    /// Most values name no `$(inherited)` and have no space at either end: they are taken as they
    /// are (Foundation's replacing and trimming, per value of every level of every target of a
    /// large project, were a fifth of its check).
    static func replacingInherited(in value: String, with below: String) -> String {
        var out = value
        if value.utf8.contains(UInt8(ascii: "$")) {
            for token in ["$(inherited)", "${inherited}", "$(INHERITED)"] { out = LiteralText.replacing(token, with: below, in: out) }
        }
        if let first = out.utf8.first, let last = out.utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return out }
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// The origin of a setting's value (nil: neither set nor defaulted).
    public func origin(_ key: String) -> SettingOrigin? { values[key]?.origin }

    /// The fully expanded value; nil when unset or when a reference cannot be resolved (a setting
    /// reswatch does not know: the value is unknown, never guessed).
    public func string(_ key: String) -> String? {
        guard let raw = values[key]?.raw else { return builtins[key] }
        return expand(raw, depth: 0)
    }

    /// Xcode's own settings (set for every target whatever the project says): a reference to one
    /// that reswatch cannot resolve is unknown, not empty.
    public static let xcodeProvided: Set<String> = [
        "EXECUTABLE_NAME", "EXECUTABLE_PREFIX", "EXECUTABLE_SUFFIX", "PRODUCT_NAME", "TARGET_NAME", "PRODUCT_BUNDLE_IDENTIFIER",
        "PRODUCT_MODULE_NAME", "PRODUCT_BUNDLE_PACKAGE_TYPE", "DEVELOPMENT_LANGUAGE", "MARKETING_VERSION", "CURRENT_PROJECT_VERSION",
        "WRAPPER_NAME", "WRAPPER_EXTENSION", "FULL_PRODUCT_NAME", "PRODUCT_TYPE", "SRCROOT", "PROJECT_NAME", "CONFIGURATION",
        "PLATFORM_NAME", "SDKROOT", "INFOPLIST_FILE", "DEVELOPMENT_TEAM", "TARGET_BUILD_DIR", "BUILT_PRODUCTS_DIR", "PROJECT_DIR",
        "SWIFT_MODULE_NAME", "CONTENTS_FOLDER_PATH", "EFFECTIVE_PLATFORM_NAME",
    ]

    /// A setting as xcodebuild resolves it when every .xcconfig of the target was read: a
    /// `$(VAR)` no level defines is empty (HomeAssistant's `WatchIcon${BUNDLE_ID_SUFFIX}` is
    /// `WatchIcon` in Release, whose xcconfig sets no suffix). nil as `expandingUndefinedAsEmpty`.
    public func stringUndefinedAsEmpty(_ key: String) -> String? {
        guard let raw = values[key]?.raw else { return builtins[key] }
        return expandingUndefinedAsEmpty(raw)?.value
    }

    /// A text as Xcode expands it when it builds the Info.plist: a `$(VAR)` the target's settings
    /// do not define becomes empty (`undefined` names them). nil when a reference cannot be
    /// judged: one to an Xcode setting reswatch does not model, a modifier (`$(VAR:lower)`), or
    /// nesting too deep.
    public func expandingUndefinedAsEmpty(_ text: String) -> (value: String, undefined: [String])? {
        var undefined: [String] = []
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let next = text.index(after: i)
            guard c == "$", next < text.endIndex, text[next] == "(" || text[next] == "{" else {
                out.append(c)
                i = next
                continue
            }
            let close: Character = text[next] == "(" ? ")" : "}"
            guard let end = text[next...].firstIndex(of: close) else { return nil }
            let name = String(text[text.index(after: next)..<end])
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
            if values[name] != nil || builtins[name] != nil {
                guard let v = string(name) else { return nil }
                out += v
            } else if Self.xcodeProvided.contains(name) {
                return nil
            } else {
                undefined.append(name)
            }
            i = text.index(after: end)
        }
        return (out, undefined)
    }

    func expand(_ text: String, depth: Int) -> String? {
        guard text.contains("$") else { return text }
        guard depth < 16 else { return nil }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let next = text.index(after: i)
            if c == "$", next < text.endIndex, text[next] == "(" || text[next] == "{" {
                let close: Character = text[next] == "(" ? ")" : "}"
                guard let end = text[next...].firstIndex(of: close) else { return nil }
                let name = String(text[text.index(after: next)..<end])
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }  // $(VAR:modifier)
                let replacement: String?
                if let v = values[name] {
                    replacement = expand(v.raw, depth: depth + 1)
                } else {
                    replacement = builtins[name]
                }
                guard let replacement else { return nil }
                out += replacement
                i = text.index(after: end)
            } else {
                out.append(c)
                i = next
            }
        }
        return out
    }
}
