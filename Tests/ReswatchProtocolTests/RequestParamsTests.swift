import Foundation
import ReswatchProtocol
import Testing

/// Params a client encodes are read back by the server's reader unchanged; wrong ones get the
/// precise error the server sends.
@Suite struct RequestParamsTests {
    func roundTrip<P: RequestParams>(_ params: P) throws -> P {
        let data = try JSONEncoder().encode(params)
        let raw = try JSONDecoder().decode(JSONValue.self, from: data)
        return try ParamReader.read(P.self, from: raw)
    }

    @Test func clientParamsReadBackByTheServer() throws {
        let d = try roundTrip(DiagnosticsParams(root: "/r", path: "/r/A", minimumSeverity: .warning))
        #expect(d.root == "/r" && d.path == "/r/A" && d.minimumSeverity == .warning)
        let empty = try roundTrip(DiagnosticsParams())
        #expect(empty.root == nil && empty.path == nil && empty.minimumSeverity == nil)
        #expect(try roundTrip(SyncParams(timeoutMilliseconds: 250)).timeoutMilliseconds == 250)
        #expect(try roundTrip(PathParams(path: "/x")).path == "/x")
        #expect(try roundTrip(RootParams()).root == nil)
        #expect(try roundTrip(SeverityParams(minimumSeverity: .error)).minimumSeverity == .error)
    }

    @Test func wrongParamsAreNamed() {
        #expect(throws: RPCError.invalidParams("unknown parameter 'x' (this method takes none)")) {
            try ParamReader.read(NoParams.self, from: .object(["x": .integer(1)]))
        }
        #expect(throws: RPCError.invalidParams("unknown parameter 'paht' (known: path)")) {
            try ParamReader.read(PathParams.self, from: .object(["paht": .string("/x")]))
        }
        #expect(throws: RPCError.invalidParams("path is required")) { try ParamReader.read(PathParams.self, from: nil) }
        #expect(throws: RPCError.invalidParams("timeout_ms must be a whole number in 1…600000")) {
            try ParamReader.read(SyncParams.self, from: .object(["timeout_ms": .integer(0)]))
        }
        #expect(throws: RPCError.invalidParams("min_severity must be info, warning or error")) {
            try ParamReader.read(SeverityParams.self, from: .object(["min_severity": .string("fatal")]))
        }
        #expect(throws: RPCError.invalidParams("params must be an object")) {
            try ParamReader.read(NoParams.self, from: .array([.integer(1)]))
        }
    }

    @Test func methodNamesAreDeclaredOnce() {
        let names = ReswatchRequests.all.map { $0.method }
        #expect(Set(names).count == names.count)
        #expect(names.contains("watch/add") && names.contains("rules/list"))
    }
}
