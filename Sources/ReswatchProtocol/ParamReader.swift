import Findings
import SystemCalls

/// Typed access to a request's params, rejecting unknown keys with the list of known ones.
public struct ParamReader: Sendable {
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

    /// Reads a request's typed params from its raw JSON.
    public static func read<P: RequestParams>(_ type: P.Type, from value: JSONValue?) throws(RPCError) -> P {
        try P(reading: ParamReader(value, allowed: P.keys))
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

    public func bool(_ key: String) throws(RPCError) -> Bool? {
        guard let v = object[key], v != .null else { return nil }
        guard case .bool(let b) = v else { throw .invalidParams("\(key) must be true or false") }
        return b
    }

    /// A list of strings (at most `limit` of them).
    public func strings(_ key: String, limit: Int = 1000) throws(RPCError) -> [String]? {
        guard let v = object[key], v != .null else { return nil }
        guard case .array(let items) = v, items.count <= limit else {
            throw .invalidParams("\(key) must be a list of at most \(limit) strings")
        }
        var out: [String] = []
        for item in items {
            guard case .string(let s) = item else { throw .invalidParams("\(key) must be a list of strings") }
            out.append(s)
        }
        return out
    }

    public func severity(_ key: String) throws(RPCError) -> Severity? {
        guard let s = try string(key) else { return nil }
        guard let v = Severity(rawValue: s) else { throw .invalidParams("\(key) must be info, warning or error") }
        return v
    }
}
