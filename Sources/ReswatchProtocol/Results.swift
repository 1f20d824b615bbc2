import Findings
import SystemCalls

/// `initialize` → server, protocol version and capabilities.
public struct InitializeResult: Codable, Sendable {
    public struct Server: Codable, Sendable {
        public let name: String
        public let version: String
    }
    public let server: Server
    public let `protocol`: Int
    public let capabilities: [String]

    /// `methods`: those the server has a handler for; the notifications it sends are added.
    public init(version: String, methods: [String]) {
        server = Server(name: "reswatch", version: version)
        `protocol` = 1
        capabilities = methods + RPCNotification.allCases.map { "notifications:\($0.rawValue)" }
    }
}

/// One root in `status`.
public struct RootStatus: Codable, Sendable, Hashable {
    public enum State: String, Codable, Sendable { case scanning, ready, degraded }
    public var path: String
    public var state: State
    public var files: Int
    public var projects: Int
    public var errors: Int
    public var warnings: Int
    public var infos: Int
    /// ISO 8601 time of the last change that altered diagnostics, or null.
    public var lastChange: String?
    public var recrawls: Int
    /// Why the root is degraded (watch limit, overflow being recovered), if it is; for a ready root
    /// that holds nothing reswatch checks, that ("nothing to check: …").
    public var reason: String?
    /// Subjects reswatch judges in the root (projects, catalogs, sets, plists, images …): 0 is a
    /// root with nothing to check, which is said, not shown as clean; null while the root is
    /// scanning (or from a daemon older than the field).
    public var judged: Int?

    enum CodingKeys: String, CodingKey {
        case path, state, files, projects, errors, warnings, infos, recrawls, reason, judged
        case lastChange = "last_change"
    }

    public init(
        path: String, state: State, files: Int, projects: Int, errors: Int, warnings: Int, infos: Int, lastChange: String?,
        recrawls: Int, reason: String?, judged: Int? = nil
    ) {
        self.path = path
        self.state = state
        self.files = files
        self.projects = projects
        self.errors = errors
        self.warnings = warnings
        self.infos = infos
        self.lastChange = lastChange
        self.recrawls = recrawls
        self.reason = reason
        self.judged = judged
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path)
        state = try c.decode(State.self, forKey: .state)
        files = try c.decode(Int.self, forKey: .files)
        projects = try c.decode(Int.self, forKey: .projects)
        errors = try c.decode(Int.self, forKey: .errors)
        warnings = try c.decode(Int.self, forKey: .warnings)
        infos = try c.decode(Int.self, forKey: .infos)
        lastChange = try c.decodeIfPresent(String.self, forKey: .lastChange)
        recrawls = try c.decode(Int.self, forKey: .recrawls)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        judged = try c.decodeIfPresent(Int.self, forKey: .judged)
    }

    /// A ready root that holds nothing reswatch checks.
    public var isEmpty: Bool { judged == 0 }

    /// A path's bytes that are not UTF-8 are written `\xHH`, as in findings (docs/protocol.md).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FileName.escapingUndecodable(path), forKey: .path)
        try c.encode(state, forKey: .state)
        try c.encode(files, forKey: .files)
        try c.encode(projects, forKey: .projects)
        try c.encode(errors, forKey: .errors)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(infos, forKey: .infos)
        try c.encode(lastChange, forKey: .lastChange)
        try c.encode(recrawls, forKey: .recrawls)
        try c.encode(reason.map(FileName.escapingUndecodable), forKey: .reason)
        try c.encode(judged, forKey: .judged)
    }
}

/// `status`.
public struct StatusResult: Codable, Sendable {
    public var roots: [RootStatus]
    public var generation: Int
    public var uptimeSeconds: Double
    public var ruleErrors: [ModuleError]
    public var watches: Int
    public var settleMilliseconds: Int
    public var socket: String
    /// How the daemon was started: "systemd", "on demand by reswatch lsp", "by hand".
    public var startedBy: String?
    /// Where the daemon's own log goes: a file, or "the journal".
    public var log: String?
    /// Seconds without a client after which it exits (a daemon started on demand); nil: never.
    public var idleExitSeconds: Int?

    enum CodingKeys: String, CodingKey {
        case roots, generation, watches, socket, log
        case uptimeSeconds = "uptime_s"
        case ruleErrors = "rule_errors"
        case settleMilliseconds = "settle_ms"
        case startedBy = "started_by"
        case idleExitSeconds = "idle_exit_s"
    }

    public init(
        roots: [RootStatus], generation: Int, uptimeSeconds: Double, ruleErrors: [ModuleError], watches: Int, settleMilliseconds: Int,
        socket: String
    ) {
        self.roots = roots
        self.generation = generation
        self.uptimeSeconds = uptimeSeconds
        self.ruleErrors = ruleErrors
        self.watches = watches
        self.settleMilliseconds = settleMilliseconds
        self.socket = socket
    }

    /// The socket's and the log's paths as every path goes out: a byte that is not UTF-8 as `\xHH`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(roots, forKey: .roots)
        try c.encode(generation, forKey: .generation)
        try c.encode(uptimeSeconds, forKey: .uptimeSeconds)
        try c.encode(ruleErrors, forKey: .ruleErrors)
        try c.encode(watches, forKey: .watches)
        try c.encode(settleMilliseconds, forKey: .settleMilliseconds)
        try c.encode(FileName.escapingUndecodable(socket), forKey: .socket)
        try c.encodeIfPresent(startedBy, forKey: .startedBy)
        try c.encodeIfPresent(log.map(FileName.escapingUndecodable), forKey: .log)
        try c.encodeIfPresent(idleExitSeconds, forKey: .idleExitSeconds)
    }
}

/// `diagnostics`, `subscribe` and the `resync` notification.
public struct DiagnosticsSnapshot: Codable, Sendable {
    public var generation: Int
    public var diagnostics: [Diagnostic]
    public init(generation: Int, diagnostics: [Diagnostic]) {
        self.generation = generation
        self.diagnostics = diagnostics
    }
}

/// `diagnostics/changed`.
public struct DiagnosticsChange: Codable, Sendable {
    public var generation: Int
    public var added: [Diagnostic]
    public var removed: [Diagnostic]
    public init(generation: Int, added: [Diagnostic], removed: [Diagnostic]) {
        self.generation = generation
        self.added = added
        self.removed = removed
    }
}

/// `sync` and `recheck`.
public struct GenerationResult: Codable, Sendable {
    public var generation: Int
    public init(generation: Int) { self.generation = generation }
}

/// `watch/list`, `watch/add`, `watch/remove`.
public struct WatchListResult: Codable, Sendable {
    public var roots: [String]
    public init(roots: [String]) { self.roots = roots }
    /// Written as `RootStatus.path` is: a byte that is not UTF-8 as `\xHH`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(roots.map(FileName.escapingUndecodable), forKey: .roots)
    }
}

/// `rules/list`.
public struct RulesListResult: Codable, Sendable {
    public struct Rule: Codable, Sendable {
        public var id: String
        public var severity: Severity
        public var code: String?
        public var kind: String
        public var source: String
        public var summary: String

        public init(id: String, severity: Severity, code: String?, kind: String, source: String, summary: String) {
            self.id = id
            self.severity = severity
            self.code = code
            self.kind = kind
            self.source = source
            self.summary = summary
        }
    }
    public var rules: [Rule]
    public var errors: [ModuleError]
    public init(rules: [Rule], errors: [ModuleError]) {
        self.rules = rules
        self.errors = errors
    }
}

/// `metrics`.
public struct MetricsResult: Codable, Sendable {
    public var text: String
    public init(text: String) { self.text = text }
}

/// An empty `{}` result (`unsubscribe`, `shutdown`).
public struct EmptyResult: Codable, Sendable {
    public init() {}
}

/// `fix`: the plan, and whether it was carried out.
public struct FixResult: Codable, Sendable {
    public struct Change: Codable, Sendable, Equatable {
        /// "edit", "create" or "rename".
        public var kind: String
        public var path: String
        public var to: String?
        public init(kind: String, path: String, to: String? = nil) {
            self.kind = kind
            self.path = path
            self.to = to
        }
    }

    public struct Repair: Codable, Sendable {
        public var rule: String
        public var path: String
        public var title: String
        public var changes: [Change]
        public init(rule: String, path: String, title: String, changes: [Change]) {
            self.rule = rule
            self.path = path
            self.title = title
            self.changes = changes
        }
    }

    public struct Left: Codable, Sendable {
        public var rule: String
        public var path: String
        public var line: Int?
        public var reason: String
        public init(rule: String, path: String, line: Int?, reason: String) {
            self.rule = rule
            self.path = path
            self.line = line
            self.reason = reason
        }
    }

    public var root: String
    public var repairs: [Repair]
    public var left: [Left]
    public var applied: Bool
    /// The journal's folder (root-relative) when applied: `reswatch fix --undo` restores it.
    public var journal: String?
    public var generation: Int

    public init(root: String, repairs: [Repair], left: [Left], applied: Bool, journal: String?, generation: Int) {
        self.root = root
        self.repairs = repairs
        self.left = left
        self.applied = applied
        self.journal = journal
        self.generation = generation
    }
}
