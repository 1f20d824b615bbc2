import Foundation
import SystemCalls

/// A JSON-RPC 2.0 error with its stable code.
public struct RPCError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// A message names paths as the daemon holds them: a byte that is not UTF-8 goes out as
    /// `\xHH`, as in every other path the daemon writes (not as the private-use character it
    /// is held in).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(FileName.escapingUndecodable(message), forKey: .message)
        try c.encodeIfPresent(data, forKey: .data)
    }

    public static func parseError(_ detail: String) -> RPCError { RPCError(code: -32700, message: "Parse error: \(detail)") }
    public static func invalidRequest(_ detail: String) -> RPCError { RPCError(code: -32600, message: "Invalid request: \(detail)") }
    /// `known`: the methods the server handles, listed in the error's data.
    public static func methodNotFound(_ method: String, known: [String]) -> RPCError {
        RPCError(code: -32601, message: "Method not found: \(method)", data: .object(["methods": .array(known.map { .string($0) })]))
    }
    public static func invalidParams(_ detail: String) -> RPCError { RPCError(code: -32602, message: "Invalid params: \(detail)") }
    public static func internalError(_ detail: String) -> RPCError { RPCError(code: -32603, message: "Internal error: \(detail)") }
    /// reswatch's own errors (-32000…-32099).
    public static func timeout(_ detail: String) -> RPCError { RPCError(code: -32001, message: detail) }
    public static func notFound(_ detail: String) -> RPCError { RPCError(code: -32002, message: detail) }
    public static func lineTooLong(_ limit: Int) -> RPCError {
        RPCError(code: -32600, message: "Invalid request: line longer than \(limit) bytes (discarded)")
    }
    public static func failed(_ detail: String) -> RPCError { RPCError(code: -32003, message: detail) }
    /// The caller's role does not allow the method.
    public static func forbidden(_ detail: String) -> RPCError { RPCError(code: -32004, message: detail) }

    public var description: String { "\(message) (\(code))" }
}

/// Notifications the daemon sends to subscribers.
public enum RPCNotification: String, Sendable, CaseIterable {
    case diagnosticsChanged = "diagnostics/changed"
    case statusChanged = "status/changed"
    case resync
}

/// One parsed request line.
public struct RPCRequest: Sendable {
    public var id: JSONValue?
    public var method: String
    public var params: JSONValue?

    /// Parses a line; a parse failure carries the id when one could be read.
    public static func parse(_ line: [UInt8]) -> Result<RPCRequest, RPCError> {
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: Data(line)) } catch {
            return .failure(.parseError("not valid JSON"))
        }
        guard case .object(let o) = value else { return .failure(.invalidRequest("a request is a JSON object")) }
        guard o["jsonrpc"] == .string("2.0") else { return .failure(.invalidRequest("\"jsonrpc\" must be \"2.0\"")) }
        guard case .string(let method)? = o["method"] else { return .failure(.invalidRequest("\"method\" must be a string")) }
        if let id = o["id"] {
            switch id {
            case .string, .integer, .number, .null: break
            default: return .failure(.invalidRequest("\"id\" must be a string, number or null"))
            }
        }
        if let p = o["params"] {
            switch p {
            case .object, .array: break
            default: return .failure(.invalidRequest("\"params\" must be an object or array"))
            }
        }
        return .success(RPCRequest(id: o["id"], method: method, params: o["params"]))
    }

    /// The id of a malformed request, if one can be read (for the error reply).
    public static func bestEffortID(_ line: [UInt8]) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(line)))?["id"] ?? .null
    }
}

/// Encodes outgoing lines (each ends in "\n").
public enum RPCEncoder {
    package struct Response<R: Encodable>: Encodable {
        let jsonrpc = "2.0"
        let id: JSONValue
        let result: R
        package init(id: JSONValue, result: R) {
            self.id = id
            self.result = result
        }
    }
    package struct ErrorResponse: Encodable {
        let jsonrpc = "2.0"
        let id: JSONValue
        let error: RPCError
        package init(id: JSONValue, error: RPCError) {
            self.id = id
            self.error = error
        }
    }
    package struct Notification<P: Encodable>: Encodable {
        let jsonrpc = "2.0"
        let method: String
        let params: P
        package init(method: String, params: P) {
            self.method = method
            self.params = params
        }
    }

    public static func line<T: Encodable>(_ value: T) -> [UInt8] {
        // The same bytes as below, several times faster (CompactJSON); JSONEncoder for the rest.
        if var bytes = CompactJSON.encode(value) {
            bytes.append(0x0A)
            return bytes
        }
        return foundationLine(value)
    }

    /// `line` through `JSONEncoder`: what `CompactJSON` is held to.
    package static func foundationLine<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = Array((try? encoder.encode(value)) ?? Data("{}".utf8))
        bytes.append(0x0A)
        return bytes
    }

    public static func response<R: Encodable>(id: JSONValue, result: R) -> [UInt8] { line(Response(id: id, result: result)) }
    public static func error(id: JSONValue, _ error: RPCError) -> [UInt8] { line(ErrorResponse(id: id, error: error)) }
    public static func notification<P: Encodable>(_ method: RPCNotification, _ params: P) -> [UInt8] {
        line(Notification(method: method.rawValue, params: params))
    }
    struct Request<P: Encodable>: Encodable {
        let jsonrpc = "2.0"
        let id: Int
        let method: String
        let params: P
    }

    public static func request<P: Encodable>(id: Int, method: String, params: P) -> [UInt8] {
        line(Request(id: id, method: method, params: params))
    }
}
