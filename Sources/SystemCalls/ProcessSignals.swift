#if canImport(Glibc)
    import Glibc
#endif

/// The process's signal mask.
public enum ProcessSignals {
    /// Unblocks SIGTERM, SIGINT and SIGHUP. A program started with them blocked (posix_spawn
    /// passes the parent's mask on: a test runner, some supervisors) could otherwise not be
    /// stopped; long-running clients (`status --follow`, `lsp`) call this first.
    public static func unblockTermination() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}
