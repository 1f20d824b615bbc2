import SystemCalls

/// Where the daemon's socket is: `$RESWATCH_SOCKET`, else `$XDG_RUNTIME_DIR/reswatch/reswatch.sock`,
/// else `/tmp/reswatch-$UID/reswatch.sock`.
public enum SocketLocation {
    public static func defaultPath(environment: [String: String]) -> String {
        if let explicit = environment["RESWATCH_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/reswatch/reswatch.sock" }
        return "/tmp/reswatch-\(FileSystem.currentUser)/reswatch.sock"
    }

    /// The user a shared daemon runs as (the system service's, from sysusers): `$RESWATCH_DAEMON_USER`,
    /// else `reswatch`. A client talks to a daemon running as itself, root, or this user.
    public static func daemonUser(environment: [String: String]) -> String {
        if let name = environment["RESWATCH_DAEMON_USER"], !name.isEmpty { return name }
        return "reswatch"
    }

    /// sun_path holds 108 bytes including the terminating NUL.
    public static let maximumLength = 107
}
