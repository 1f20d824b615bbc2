import Foundation
import ReswatchProtocol
import Testing

/// A request is read into `JSONValue` kind by kind (each kind tried in turn): each JSON kind comes
/// back as itself, and whole numbers that fit 64 bits stay exact.
@Suite struct JSONValueTests {
    func read(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    @Test func everyKindReadsAsItself() throws {
        #expect(try read("null") == .null)
        #expect(try read("true") == .bool(true))
        #expect(try read("false") == .bool(false))
        #expect(try read("0") == .integer(0))
        #expect(try read("1") == .integer(1))  // not true
        #expect(try read("-9223372036854775808") == .integer(.min))
        #expect(try read("9223372036854775807") == .integer(.max))
        #expect(try read("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try read("1.5") == .number(1.5))
        #expect(try read("-2e-3") == .number(-0.002))
        #expect(try read("\"1\"") == .string("1"))  // not a number
        #expect(try read("\"true\"") == .string("true"))
        #expect(try read("\"\"") == .string(""))
        #expect(try read("[]") == .array([]))
        #expect(try read("{}") == .object([:]))
        #expect(try read("[{}]") == .array([.object([:])]))
        #expect(try read("{\"a\":[]}") == .object(["a": .array([])]))
    }

    @Test func aRequestReadsWhole() throws {
        let text = #"{"jsonrpc":"2.0","id":7,"method":"m","params":{"a":[1,"x",true,null,{"b":2.5}],"c":{"d":[[]]}}}"#
        let expected: JSONValue = .object([
            "jsonrpc": .string("2.0"), "id": .integer(7), "method": .string("m"),
            "params": .object([
                "a": .array([.integer(1), .string("x"), .bool(true), .null, .object(["b": .number(2.5)])]),
                "c": .object(["d": .array([.array([])])]),
            ]),
        ])
        #expect(try read(text) == expected)
        guard case .success(let request) = RPCRequest.parse(Array(text.utf8)) else {
            Issue.record("not parsed")
            return
        }
        #expect(request.id == .integer(7) && request.method == "m" && request.params == expected["params"])
    }

    @Test func brokenJSONIsRefusedAtAnyDepth() {
        for text in ["{", "{\"a\":[1,{\"b\":}]}", "tru", "01", "\"\\x\"", "[[[[[[[[]]]]]]]"] {
            #expect(throws: (any Error).self) { try read(text) }
            if case .success = RPCRequest.parse(Array(text.utf8)) { Issue.record("\(text) parsed") }
        }
    }
}
