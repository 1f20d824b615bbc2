import Daemon
import ReswatchProtocol
import SystemCalls
import Testing

@testable import SocketServer

@Suite struct AccessPolicyTests {
    let policy = AccessPolicy(adminUsers: [0, 1000], adminGroup: 200, readerGroup: 100)

    func role(_ uid: UInt32, _ groups: Set<UInt32>) -> Role? {
        policy.role(of: PeerCredentials(pid: 1, uid: uid, gid: 9999), groups: { _ in groups })
    }

    @Test func roles() {
        #expect(role(0, []) == .admin && role(1000, []) == .admin, "root and the daemon's user")
        #expect(role(4242, [100]) == .reader)
        #expect(role(4242, [100, 200]) == .admin)
        #expect(role(4242, [300]) == nil, "no group of the policy: no role")
        #expect(AccessPolicy(adminUsers: [1000]).role(of: PeerCredentials(pid: 1, uid: 4242, gid: 100)) == nil)
        #expect(policy.socketGroup == 100 && AccessPolicy(adminGroup: 200).socketGroup == 200)
    }

    @Test func whatEachMethodNeeds() {
        let admin = Set(ReswatchRequests.all.filter { $0.role == .admin }.map { $0.method })
        #expect(admin == ["watch/add", "watch/remove", "recheck", "shutdown", "fix"], "fix writes files")
        let handlers = Array(MethodTable(served: DaemonCore.served).byName.values)
        #expect(handlers.count == ReswatchRequests.all.count)
        #expect(handlers.allSatisfy { type(of: $0).role == (admin.contains(type(of: $0).method) ? Role.admin : Role.reader) })
    }

    @Test func refusalSaysWhichRoleAndHowToGetIt() {
        let error = policy.refusal(method: "shutdown", needs: .admin, peer: PeerCredentials(pid: 1, uid: 4242, gid: 1), role: .reader)
        #expect(error.code == -32004)
        #expect(error.message.contains("shutdown needs the admin role") && error.message.contains("is a reader"))
        #expect(error.message.contains("admins are the daemon's own user, root and members of group"))
    }
}
