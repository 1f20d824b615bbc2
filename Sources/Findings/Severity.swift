/// How bad a diagnostic is (rules.md): error = rejected upload / failed build / resource not shown.
public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    case info, warning, error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// A project's `rules.severity` value: a new severity, or `off`.
public enum SeverityOverride: String, Sendable, Hashable, Codable {
    case error, warning, info, off

    public var severity: Severity? { Severity(rawValue: rawValue) }
}
