import ReswatchProtocol
import Testing

@testable import SocketServer

/// The handler table and the protocol's declarations are two separate lists: removing a handler
/// (or declaring a request without writing one) fails here, not in a client's face.
@Suite struct MethodTableTests {
    @Test func everyDeclaredRequestHasExactlyOneHandler() {
        let declared = ReswatchRequests.all.map { $0.method }
        let served = MethodTable.methods
        #expect(Set(declared).count == declared.count, "a method is declared twice")
        #expect(Set(served).count == served.count, "a method has two handlers")
        for method in declared where !served.contains(method) {
            Issue.record("\(method) is declared in ReswatchProtocol/Requests.swift but has no handler in SocketServer's MethodTable")
        }
        for method in served where !declared.contains(method) {
            Issue.record("\(method) has a handler but is not declared in ReswatchRequests.all")
        }
    }

    @Test func unknownMethodErrorListsWhatIsServed() {
        let error = RPCError.methodNotFound("nope", known: MethodTable.methods)
        #expect(error.code == -32601)
        #expect(error.data?["methods"]?.array?.compactMap(\.string) == MethodTable.methods)
    }
}
