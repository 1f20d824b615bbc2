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
    public var line: Int?
    public var message: String
    public var fix: String?
    public var related: [String]

    public init(
        rule: String, severity: Severity, code: String? = nil, root: String, project: String, path: String,
        line: Int? = nil, message: String, fix: String? = nil, related: [String] = []
    ) {
        self.rule = rule
        self.severity = severity
        self.code = code
        self.root = root
        self.project = project
        self.path = path
        self.line = line
        self.message = message
        self.fix = fix
        self.related = related
    }

    enum CodingKeys: String, CodingKey { case rule, severity, code, root, project, path, line, message, fix, related }

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
        try c.encode(FileName.escapingUndecodable(message), forKey: .message)
        try c.encode(fix.map(FileName.escapingUndecodable), forKey: .fix)
        try c.encode(related.map(FileName.escapingUndecodable), forKey: .related)
    }

    /// Stable order: root, path, line, rule, message.
    public static func stableOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.root != b.root { return a.root < b.root }
        if a.path != b.path { return a.path < b.path }
        if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }
}
