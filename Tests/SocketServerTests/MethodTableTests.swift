import Daemon
import ReswatchProtocol
import Testing

@testable import SocketServer

/// The protocol's declarations (ReswatchRequests.all) and who serves each: the connection itself
/// (ConnectionMethods.swift) or the daemon's routes (DaemonService.swift), never both, never none.
/// Declaring a request without a route (or a route without a declaration) fails here, not in a
/// client's face.
@Suite struct MethodTableTests {
    @Test func everyDeclaredRequestIsServedOnce() {
        let declared = ReswatchRequests.all.map { $0.method }
        #expect(Set(declared).count == declared.count, "a method is declared twice")
        let table = MethodTable(served: DaemonCore.served)
        #expect(table.methods == declared, "served in declaration order, each once")
        let connection = Set(MethodTable.connectionMethods.map { type(of: $0).method })
        for method in DaemonCore.served {
            #expect(declared.contains(method), "\(method) has a daemon route but is not declared in ReswatchRequests.all")
            #expect(!connection.contains(method), "\(method) is both the connection's and the daemon's")
        }
        for method in declared where !connection.contains(method) && !DaemonCore.served.contains(method) {
            Issue.record("\(method) is declared in ReswatchProtocol/Requests.swift but no route serves it (Daemon/DaemonService.swift)")
        }
    }

    @Test func unknownMethodErrorListsWhatIsServed() {
        let table = MethodTable(served: DaemonCore.served)
        let error = RPCError.methodNotFound("nope", known: table.methods)
        #expect(error.code == -32601)
        #expect(error.data?["methods"]?.array?.compactMap(\.string) == table.methods)
    }
}
