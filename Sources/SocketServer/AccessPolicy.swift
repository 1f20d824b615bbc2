import ReswatchProtocol
import SystemCalls

/// Who may do what on the daemon's socket (docs/security.md, "Who may do what"). The peer's
/// credentials are read from the connection itself (SO_PEERCRED), never from what it says.
package struct AccessPolicy: Sendable {
    /// Admins by uid: the daemon's own user and root.
    package var adminUsers: Set<UInt32>
    /// Members are admins (`admin-group`).
    package var adminGroup: UInt32?
    /// Members are readers (`socket-group`: the socket is 0660 in a 0750 folder of that group).
    package var readerGroup: UInt32?

    /// The group the socket (0660) and its folder (0750) belong to: the readers', else the
    /// admins' (members of admin-group must be able to open the socket too: put them in
    /// socket-group when both are set).
    package var socketGroup: UInt32? { readerGroup ?? adminGroup }

    package init(adminUsers: Set<UInt32> = [FileSystem.currentUser, 0], adminGroup: UInt32? = nil, readerGroup: UInt32? = nil) {
        self.adminUsers = adminUsers
        self.adminGroup = adminGroup
        self.readerGroup = readerGroup
    }

    /// The role of a peer, or nil when it has none (it may connect, but every call is refused).
    package func role(of peer: PeerCredentials, groups: (PeerCredentials) -> Set<UInt32> = Self.groups) -> Role? {
        if adminUsers.contains(peer.uid) { return .admin }
        if adminGroup == nil && readerGroup == nil { return nil }
        let member = groups(peer)
        if let adminGroup, member.contains(adminGroup) { return .admin }
        if let readerGroup, member.contains(readerGroup) { return .reader }
        return nil
    }

    package static func groups(_ peer: PeerCredentials) -> Set<UInt32> { UserDatabase.groups(ofUser: peer.uid, primary: peer.gid) }

    /// The error for a call the peer's role does not allow.
    func refusal(method: String, needs: Role, peer: PeerCredentials, role: Role?) -> RPCError {
        let who = UserDatabase.userName(peer.uid).map { "\($0) (uid \(peer.uid))" } ?? "uid \(peer.uid)"
        let has = role.map { "is a \($0.rawValue)" } ?? "has no role on this daemon"
        var how = ""
        if needs == .admin {
            how =
                adminGroup.map {
                    "; admins are the daemon's own user, root and members of group \(UserDatabase.groupName($0) ?? String($0))"
                }
                ?? "; admins are the daemon's own user and root (admin-group adds a group)"
        } else if let readerGroup {
            how = "; readers are members of group \(UserDatabase.groupName(readerGroup) ?? String(readerGroup))"
        }
        return .forbidden("permission denied: \(method) needs the \(needs.rawValue) role, and \(who) \(has)\(how)")
    }
}
