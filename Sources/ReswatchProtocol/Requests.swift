import Findings

/// One request of the daemon's protocol (docs/protocol.md): its method name declared once, its
/// typed params and its response type. The server's handlers and `ReswatchClient` use the same
/// types, so a client cannot send a method or read a result the server does not define.
public protocol ReswatchRequest: Sendable {
    associatedtype Params: RequestParams
    associatedtype Response: Codable & Sendable
    static var method: String { get }
    /// Who may call it (docs/security.md, "Who may do what").
    static var role: Role { get }
}

extension ReswatchRequest {
    public static var role: Role { .reader }
}

/// What a client may do. Readers query, subscribe and sync; admins also change what is watched,
/// recheck and shut the daemon down.
public enum Role: String, Sendable, Comparable, CaseIterable {
    case reader, admin

    public static func < (a: Role, b: Role) -> Bool { a == .reader && b == .admin }
}

/// A request's params: encoded by the client, read by the server with a precise error for
/// every wrong key or value.
public protocol RequestParams: Encodable, Sendable {
    /// How its keys are spelled on the wire: the one declaration of them. What the encoder
    /// writes, what the reader accepts (`keys`) and docs/protocol.md's table come from it
    /// (`RequestParamsTests` checks the three agree).
    associatedtype CodingKeys: CodingKey, CaseIterable, RawRepresentable<String>
    /// The keys it accepts: anything else is an "Invalid params" error naming them.
    static var keys: Set<String> { get }
    init(reading params: ParamReader) throws(RPCError)
}

extension RequestParams {
    public static var keys: Set<String> { Set(CodingKeys.allCases.map(\.rawValue)) }
}

/// Every request the protocol declares. The server's handler table must cover exactly these
/// (`MethodTableTests`), and `initialize`'s capabilities are derived from that table.
public enum ReswatchRequests {
    public static let all: [any ReswatchRequest.Type] = [
        InitializeRequest.self, StatusRequest.self, DiagnosticsRequest.self, SubscribeRequest.self, UnsubscribeRequest.self,
        SyncRequest.self, WatchAddRequest.self, WatchRemoveRequest.self, WatchListRequest.self, RecheckRequest.self,
        RulesListRequest.self, ShutdownRequest.self, MetricsRequest.self, FixRequest.self,
    ]
}

// MARK: - the requests

/// `initialize` → server, protocol version and capabilities.
public enum InitializeRequest: ReswatchRequest {
    public static let method = "initialize"
    public typealias Params = NoParams
    public typealias Response = InitializeResult
}

/// `status` → roots with state and counts, generation, uptime, rule-module errors.
public enum StatusRequest: ReswatchRequest {
    public static let method = "status"
    public typealias Params = NoParams
    public typealias Response = StatusResult
}

/// `diagnostics {root?, path?, min_severity?}` → `{generation, diagnostics}`.
public enum DiagnosticsRequest: ReswatchRequest {
    public static let method = "diagnostics"
    public typealias Params = DiagnosticsParams
    public typealias Response = DiagnosticsSnapshot
}

/// `subscribe {min_severity?}` → snapshot; then `diagnostics/changed` and `status/changed`.
public enum SubscribeRequest: ReswatchRequest {
    public static let method = "subscribe"
    public typealias Params = SeverityParams
    public typealias Response = DiagnosticsSnapshot
}

/// `unsubscribe` → `{}`; no more notifications on this connection.
public enum UnsubscribeRequest: ReswatchRequest {
    public static let method = "unsubscribe"
    public typealias Params = NoParams
    public typealias Response = EmptyResult
}

/// `sync {timeout_ms?}` → `{generation}` once every change made before the call is processed.
public enum SyncRequest: ReswatchRequest {
    public static let method = "sync"
    public typealias Params = SyncParams
    public typealias Response = GenerationResult
}

/// `recheck {root?}` → `{generation}` after re-reading everything from disk.
public enum RecheckRequest: ReswatchRequest {
    public static let role = Role.admin
    public static let method = "recheck"
    public typealias Params = RootParams
    public typealias Response = GenerationResult
}

/// `fix` → the repair plan for a path under a watched root (docs/fix.md), carried out with
/// `apply: true` (originals journaled, each file replaced atomically); the daemon then
/// re-validates the changed files as after any change. Writes files: admin only.
public enum FixRequest: ReswatchRequest {
    public static let role = Role.admin
    public static let method = "fix"
    public typealias Params = FixParams
    public typealias Response = FixResult
}

/// `shutdown` → `{}`, then a graceful shutdown (as SIGTERM).
public enum ShutdownRequest: ReswatchRequest {
    public static let role = Role.admin
    public static let method = "shutdown"
    public typealias Params = NoParams
    public typealias Response = EmptyResult
}

/// `watch/add {path}` → `{roots}` after the initial scan of the new root.
public enum WatchAddRequest: ReswatchRequest {
    public static let role = Role.admin
    public static let method = "watch/add"
    public typealias Params = PathParams
    public typealias Response = WatchListResult
}

/// `watch/remove {path}` → `{roots}`; its diagnostics are removed (and notified).
public enum WatchRemoveRequest: ReswatchRequest {
    public static let role = Role.admin
    public static let method = "watch/remove"
    public typealias Params = PathParams
    public typealias Response = WatchListResult
}

/// `watch/list` → `{roots}`.
public enum WatchListRequest: ReswatchRequest {
    public static let method = "watch/list"
    public typealias Params = NoParams
    public typealias Response = WatchListResult
}

/// `rules/list` → every rule id in force, and module load errors.
public enum RulesListRequest: ReswatchRequest {
    public static let method = "rules/list"
    public typealias Params = NoParams
    public typealias Response = RulesListResult
}

/// `metrics` → `{text}`: the Prometheus text exposition (docs/operations.md).
public enum MetricsRequest: ReswatchRequest {
    public static let method = "metrics"
    public typealias Params = NoParams
    public typealias Response = MetricsResult
}

// MARK: - params

/// No params (`{}`, `[]` or none).
public struct NoParams: RequestParams {
    /// No key: `none` only stands in for the empty list Swift does not allow a raw-value enum.
    public enum CodingKeys: String, CodingKey, CaseIterable { case none = "" }
    public static var keys: Set<String> { [] }
    public init() {}
    public func encode(to encoder: any Encoder) throws { _ = encoder.container(keyedBy: CodingKeys.self) }
    public init(reading params: ParamReader) {}
}

public struct DiagnosticsParams: RequestParams {
    public var root: String?
    public var path: String?
    public var minimumSeverity: Severity?
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case root, path
        case minimumSeverity = "min_severity"
    }
    public init(root: String? = nil, path: String? = nil, minimumSeverity: Severity? = nil) {
        self.root = root
        self.path = path
        self.minimumSeverity = minimumSeverity
    }
    public init(reading params: ParamReader) throws(RPCError) {
        root = try params.string("root")
        path = try params.string("path")
        minimumSeverity = try params.severity("min_severity")
    }
}

public struct SeverityParams: RequestParams {
    public var minimumSeverity: Severity?
    public enum CodingKeys: String, CodingKey, CaseIterable { case minimumSeverity = "min_severity" }
    public init(minimumSeverity: Severity? = nil) { self.minimumSeverity = minimumSeverity }
    public init(reading params: ParamReader) throws(RPCError) { minimumSeverity = try params.severity("min_severity") }
}

public struct SyncParams: RequestParams {
    public static let timeoutRange = 1...600_000
    public var timeoutMilliseconds: Int?
    public enum CodingKeys: String, CodingKey, CaseIterable { case timeoutMilliseconds = "timeout_ms" }
    public init(timeoutMilliseconds: Int? = nil) { self.timeoutMilliseconds = timeoutMilliseconds }
    public init(reading params: ParamReader) throws(RPCError) {
        timeoutMilliseconds = try params.int("timeout_ms", range: Self.timeoutRange)
    }
}

public struct RootParams: RequestParams {
    public var root: String?
    public enum CodingKeys: String, CodingKey, CaseIterable { case root }
    public init(root: String? = nil) { self.root = root }
    public init(reading params: ParamReader) throws(RPCError) { root = try params.string("root") }
}

public struct FixParams: RequestParams {
    /// A folder or file under a watched root (absolute).
    public var path: String
    /// Only the findings on `path` (a file) at this line: one finding, as an editor's quick fix.
    public var line: Int?
    /// Make a legacy iOS app icon set a single-size set instead of filling its sizes.
    public var singleSize: Bool

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case path, apply, only, background, line
        case singleSize = "single_size"
    }
    public var apply: Bool
    /// Rule ids to repair (all when absent).
    public var only: [String]?
    /// `#rrggbb`, `white` or `black`: the colour a transparent App Store icon is laid over.
    public var background: String?

    public init(
        path: String, apply: Bool = false, only: [String]? = nil, background: String? = nil, line: Int? = nil, singleSize: Bool = false
    ) {
        self.path = path
        self.singleSize = singleSize
        self.line = line
        self.apply = apply
        self.only = only
        self.background = background
    }

    public init(reading params: ParamReader) throws(RPCError) {
        path = try params.requiredString("path")
        apply = try params.bool("apply") ?? false
        only = try params.strings("only", limit: 200)
        background = try params.string("background")
        line = try params.int("line", range: 1...Int(Int32.max))
        singleSize = try params.bool("single_size") ?? false
    }
}

public struct PathParams: RequestParams {
    public var path: String
    public enum CodingKeys: String, CodingKey, CaseIterable { case path }
    public init(path: String) { self.path = path }
    public init(reading params: ParamReader) throws(RPCError) { path = try params.requiredString("path") }
}
