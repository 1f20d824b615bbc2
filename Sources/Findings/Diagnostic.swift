import SystemCalls

/// One finding, shaped as in rules.md ("Output shape of one diagnostic").
public struct Diagnostic: Sendable, Hashable, Codable {
    public var rule: String
    public var severity: Severity
    public var code: String?
    /// Absolute path of the watched root.
    public var root: String
    /// Project directory relative to the root ("" is the root).
    public var project: String
    /// Path relative to the root.
    public var path: String
    /// 1-based line in `path`, for a text file the line of the key, entry or setting the finding
    /// is about (nil for an image or a binary plist).
    public var line: Int?
    /// 1-based column on `line`, in UTF-16 code units (as LSP and SARIF count them).
    public var column: Int?
    public var message: String
    public var fix: String?
    public var related: [String]
    /// Places that explain the finding, each with its line where it has one: for an image in an
    /// asset set, the `Contents.json` entry that uses it.
    public var relatedLocations: [RelatedLocation]

    public init(
        rule: String, severity: Severity, code: String? = nil, root: String, project: String, path: String,
        line: Int? = nil, column: Int? = nil, message: String, fix: String? = nil, related: [String] = [],
        relatedLocations: [RelatedLocation] = []
    ) {
        self.rule = rule
        self.severity = severity
        self.code = code
        self.root = root
        self.project = project
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.fix = fix
        self.related = related
        self.relatedLocations = relatedLocations
    }

    enum CodingKeys: String, CodingKey {
        case rule, severity, code, root, project, path, line, column, message, fix, related, relatedLocations
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rule = try c.decode(String.self, forKey: .rule)
        severity = try c.decode(Severity.self, forKey: .severity)
        code = try c.decodeIfPresent(String.self, forKey: .code)
        root = try c.decode(String.self, forKey: .root)
        project = try c.decode(String.self, forKey: .project)
        path = try c.decode(String.self, forKey: .path)
        line = try c.decodeIfPresent(Int.self, forKey: .line)
        // Absent from a daemon older than the field: nothing, not an error.
        column = try c.decodeIfPresent(Int.self, forKey: .column)
        message = try c.decode(String.self, forKey: .message)
        fix = try c.decodeIfPresent(String.self, forKey: .fix)
        related = try c.decodeIfPresent([String].self, forKey: .related) ?? []
        relatedLocations = try c.decodeIfPresent([RelatedLocation].self, forKey: .relatedLocations) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(severity, forKey: .severity)
        try c.encode(code, forKey: .code)  // null, not absent: the shape is fixed
        // File names that are not UTF-8 carry their undecodable bytes as \xHH (FileName).
        try c.encode(FileName.escapingUndecodable(root), forKey: .root)
        try c.encode(FileName.escapingUndecodable(project), forKey: .project)
        try c.encode(FileName.escapingUndecodable(path), forKey: .path)
        try c.encode(line, forKey: .line)
        try c.encode(column, forKey: .column)
        try c.encode(FileName.escapingUndecodable(message), forKey: .message)
        try c.encode(fix.map(FileName.escapingUndecodable), forKey: .fix)
        try c.encode(related.map(FileName.escapingUndecodable), forKey: .related)
        try c.encode(relatedLocations, forKey: .relatedLocations)
    }

    /// Stable order: root, path, line, rule, message.
    public static func stableOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.root != b.root { return a.root < b.root }
        if a.path != b.path { return a.path < b.path }
        if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
        if (a.column ?? 0) != (b.column ?? 0) { return (a.column ?? 0) < (b.column ?? 0) }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }
}

/// A place that explains a finding (SARIF's `relatedLocations`, LSP's `relatedInformation`).
public struct RelatedLocation: Sendable, Hashable, Codable {
    /// Path relative to the root.
    public var path: String
    public var line: Int?
    public var column: Int?
    /// What this place is to the finding ("the Contents.json entry that uses it").
    public var message: String

    public init(path: String, line: Int?, column: Int?, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    enum CodingKeys: String, CodingKey { case path, line, column, message }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FileName.escapingUndecodable(path), forKey: .path)
        try c.encode(line, forKey: .line)
        try c.encode(column, forKey: .column)
        try c.encode(FileName.escapingUndecodable(message), forKey: .message)
    }
}
