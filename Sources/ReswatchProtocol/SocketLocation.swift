import SystemCalls

/// Where the daemon's socket is: `$RESWATCH_SOCKET`, else `$XDG_RUNTIME_DIR/reswatch/reswatch.sock`,
/// else `/tmp/reswatch-$UID/reswatch.sock`.
public enum SocketLocation {
    public static func defaultPath(environment: [String: String]) -> String {
        if let explicit = environment["RESWATCH_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/reswatch/reswatch.sock" }
        return "/tmp/reswatch-\(FileSystem.currentUser)/reswatch.sock"
    }

    /// sun_path holds 108 bytes including the terminating NUL.
    public static let maximumLength = 107
}
