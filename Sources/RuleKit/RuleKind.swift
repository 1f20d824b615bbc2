import Findings
import ImageFacts

/// A rule id a kind can report, with its documentation (rules.md is the contract for ids).
public struct RuleInfo: Sendable, Hashable, Codable {
    public let id: String
    public let severity: Severity
    /// App Store Connect error number users search for, where one exists.
    public let code: String?
    /// What it checks, one sentence.
    public let summary: String
    /// Why it matters (seed document or ITMS code).
    public let rationale: String
    /// How to fix it.
    public let fix: String

    public init(id: String, severity: Severity, code: String? = nil, summary: String, rationale: String, fix: String) {
        self.id = id
        self.severity = severity
        self.code = code
        self.summary = summary
        self.rationale = rationale
        self.fix = fix
    }
}

/// A rule kind: Swift code that a rule module instantiates with data. Each kind lives in its own
/// file and carries its documentation and its triggering / non-triggering examples.
public protocol RuleKind: Sendable {
    /// The name modules use (`kind: icon-set`).
    static var name: String { get }
    static var summary: String { get }
    /// The ids this kind can report (for `exec`, the module declares them instead).
    static var rules: [RuleInfo] { get }
    static var subjects: Set<SubjectKind> { get }
    /// Examples that run as tests and appear in the docs.
    static var examples: [RuleExample] { get }
    /// Parameters this kind accepts, documented (name → meaning).
    static var parameters: [String: String] { get }

    init(parameters: ModuleParameters) throws(ModuleError)

    /// The ids this instance reports; defaults to `Self.rules`.
    var reportedRules: [RuleInfo] { get }

    /// The subjects this instance evaluates; defaults to `Self.subjects`.
    var subjectKinds: Set<SubjectKind> { get }

    /// A cheap test on the subject's path: subjects it rejects get no evaluation at all (the
    /// iTunesArtwork kind looks only at files so named). Defaults to every subject of its kinds.
    func applies(to subject: Subject) -> Bool

    /// Evaluates one subject. Everything read goes through `context`, which records it.
    func evaluate(_ subject: Subject, in context: EvaluationContext)
}

extension RuleKind {
    public var reportedRules: [RuleInfo] { Self.rules }
    public var subjectKinds: Set<SubjectKind> { Self.subjects }
    public func applies(to subject: Subject) -> Bool { true }
    public static var parameters: [String: String] { [:] }
}

/// One example: a small file tree, and which ids must (or must not) be reported for it.
public struct RuleExample: Sendable {
    public var name: String
    public var files: [String: ExampleFile]
    /// Ids that must be reported.
    public var triggers: [String]
    /// Ids that must not be reported.
    public var passes: [String]
    /// Extra module YAML loaded on top of the shipped modules (for kinds like `exec`).
    public var module: String?
    /// Where the example is written, so a failing example points at its own line.
    public let fileID: String
    public let filePath: String
    public let line: Int

    public init(
        _ name: String, files: [String: ExampleFile], triggers: [String] = [], passes: [String] = [], module: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) {
        self.name = name
        self.files = files
        self.triggers = triggers
        self.passes = passes
        self.module = module
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
    }

    public var isTriggering: Bool { !triggers.isEmpty }
}

/// A file of an example tree.
public enum ExampleFile: Sendable, Hashable {
    case text(String)
    case bytes([UInt8])
    case png(PNGSpec)
    case directory
    /// A file that exists but cannot be read (mode 000).
    case unreadable
}
