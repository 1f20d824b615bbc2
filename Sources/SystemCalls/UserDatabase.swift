#if canImport(Glibc)
    import Glibc
#endif

/// Users and groups (NSS: /etc/passwd, /etc/group, or what nsswitch.conf names).
public enum UserDatabase {
    /// The id of a group by name (or a number given as text).
    public static func groupID(named name: String) -> UInt32? {
        if let n = UInt32(name) { return n }
        var group = Glibc.group()
        var buffer = [CChar](repeating: 0, count: 16384)
        var result: UnsafeMutablePointer<Glibc.group>?
        guard getgrnam_r(name, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return group.gr_gid
    }

    /// A group's name, or nil.
    public static func groupName(_ gid: UInt32) -> String? {
        var group = Glibc.group()
        var buffer = [CChar](repeating: 0, count: 16384)
        var result: UnsafeMutablePointer<Glibc.group>?
        guard getgrgid_r(gid, &group, &buffer, buffer.count, &result) == 0, result != nil, let name = group.gr_name else { return nil }
        return String(cString: name)
    }

    /// The id of a user by name (or a number given as text).
    public static func userID(named name: String) -> UInt32? {
        if let n = UInt32(name) { return n }
        var user = passwd()
        var buffer = [CChar](repeating: 0, count: 16384)
        var result: UnsafeMutablePointer<passwd>?
        guard getpwnam_r(name, &user, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return user.pw_uid
    }

    /// A user's name, or nil.
    public static func userName(_ uid: UInt32) -> String? {
        var user = passwd()
        var buffer = [CChar](repeating: 0, count: 16384)
        var result: UnsafeMutablePointer<passwd>?
        guard getpwuid_r(uid, &user, &buffer, buffer.count, &result) == 0, result != nil, let name = user.pw_name else { return nil }
        return String(cString: name)
    }

    /// Every group a user is in: `primary` (the peer's gid) and the supplementary groups of its
    /// account.
    public static func groups(ofUser uid: UInt32, primary: UInt32) -> Set<UInt32> {
        guard let name = userName(uid) else { return [primary] }
        var count: Int32 = 64
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let n = count
            if getgrouplist(name, primary, &groups, &count) >= 0 {
                return Set(groups.prefix(Int(count))).union([primary])
            }
            if count <= n || count > 65536 { return [primary] }
        }
    }
}
