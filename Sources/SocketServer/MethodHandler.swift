import Daemon
import ReswatchProtocol
import RuleEngine

/// One JSON-RPC method: names its method once and returns its result type (sourcekit-lsp style).
protocol MethodHandler: Sendable {
    static var method: RPCMethod { get }
    /// The params keys it accepts (anything else is an "Invalid params" error).
    static var allowed: Set<String> { get }
    func handle(_ params: Params, _ connection: ConnectionContext) async throws(RPCError) -> any Encodable & Sendable
}

extension MethodHandler {
    static var allowed: Set<String> { [] }
}

/// The dispatch table: one handler per file in Methods/.
enum MethodTable {
    static let handlers: [any MethodHandler] = [
        InitializeMethod(), StatusMethod(), DiagnosticsMethod(), SubscribeMethod(), UnsubscribeMethod(), SyncMethod(),
        WatchAddMethod(), WatchRemoveMethod(), WatchListMethod(), RecheckMethod(), RulesListMethod(), ShutdownMethod(),
    ]
    static let byName: [String: any MethodHandler] = Dictionary(uniqueKeysWithValues: handlers.map { (type(of: $0).method.rawValue, $0) })
}

/// Typed access to a request's params, rejecting unknown keys. Public for the fuzz targets.
public struct Params: Sendable {
    let object: [String: JSONValue]

    public init(_ value: JSONValue?, allowed: Set<String>) throws(RPCError) {
        switch value {
        case nil, .null?: object = [:]
        case .object(let o)?: object = o
        case .array(let a)? where a.isEmpty: object = [:]
        default: throw .invalidParams("params must be an object")
        }
        for key in object.keys where !allowed.contains(key) {
            throw .invalidParams(
                "unknown parameter '\(key)'"
                    + (allowed.isEmpty ? " (this method takes none)" : " (known: \(allowed.sorted().joined(separator: ", ")))"))
        }
    }

    public func string(_ key: String) throws(RPCError) -> String? {
        guard let v = object[key], v != .null else { return nil }
        guard case .string(let s) = v else { throw .invalidParams("\(key) must be a string") }
        return s
    }

    public func requiredString(_ key: String) throws(RPCError) -> String {
        guard let s = try string(key), !s.isEmpty else { throw .invalidParams("\(key) is required") }
        return s
    }

    public func int(_ key: String, range: ClosedRange<Int>) throws(RPCError) -> Int? {
        guard let v = object[key], v != .null else { return nil }
        guard let i = v.int, range.contains(i) else {
            throw .invalidParams("\(key) must be a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return i
    }

    public func severity(_ key: String) throws(RPCError) -> Severity? {
        guard let s = try string(key) else { return nil }
        guard let v = Severity(rawValue: s) else { throw .invalidParams("\(key) must be info, warning or error") }
        return v
    }
}
