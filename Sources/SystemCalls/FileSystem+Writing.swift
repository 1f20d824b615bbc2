#if canImport(Glibc)
    import Glibc
#endif

/// Creating, writing (atomically, durably), renaming and removing files and folders.
extension FileSystem {
    /// `mkdir`.
    public static func makeDirectory(_ path: String, mode: UInt32) throws(SystemError) {
        _ = try retryingEINTR("mkdir", path) { FileName.withCString(path) { mkdir($0, mode_t(mode)) } }
    }

    /// Where temporary files go: `TMPDIR` when it is set to an absolute path, else `/tmp` (the
    /// one reading of `TMPDIR` in the program).
    public static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), value.hasPrefix("/") else { return "/tmp" }
        return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// A new private (0700) directory named `prefix` + six random characters under
    /// `temporaryDirectory`; returns its path.
    public static func makeTemporaryDirectory(named prefix: String) throws(SystemError) -> String {
        try makeTemporaryDirectory(prefix: temporaryDirectory + "/" + prefix)
    }

    /// `mkdtemp` of `prefix` + "XXXXXX": a new private (0700) directory; returns its path.
    public static func makeTemporaryDirectory(prefix: String) throws(SystemError) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemError(call: "mkdtemp", path: prefix, errno: Glibc.errno)
        }
        return String(cString: made)
    }

    /// Creates an empty file that must not exist yet and is not reached through a link
    /// (`O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC`).
    public static func createNewFile(_ path: String, mode: UInt32 = 0o600) throws(SystemError) {
        let fd = try retryingEINTR("open", path) {
            FileName.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode)) }
        }
        close(fd)
    }

    /// Creates or empties a file and closes it at once (an IN_CLOSE_WRITE for a watcher), never
    /// through a link.
    public static func touchEmpty(_ path: String, mode: UInt32 = 0o600) throws(SystemError) {
        let fd = try retryingEINTR("open", path) {
            FileName.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode_t(mode)) }
        }
        close(fd)
    }

    /// Opens a file for appending (created with `mode` if missing); the caller owns the descriptor.
    public static func openForAppending(_ path: String, mode: UInt32) throws(SystemError) -> Int32 {
        try retryingEINTR("open", path) {
            FileName.withCString(path) { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode_t(mode)) }
        }
    }

    public static func closeDescriptor(_ fd: Int32) { close(fd) }

    /// Writes all of `bytes` (partial writes continued, EINTR retried).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = try retryingEINTR("write", path) { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) } }
            done += n
        }
    }

    /// Replaces `path` with `bytes` at once (a temporary file beside it, then `rename`): a reader
    /// never sees half a report, and a failed write leaves the old file as it was.
    /// `exactMode`: the file gets `mode` whatever the umask (a file another user must read, such as
    /// the metrics file under a unit's UMask=0077).
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o644, exactMode: Bool = false) throws(SystemError)
    {
        let temporary = path + ".tmp-\(getpid())"
        let fd = try retryingEINTR("open", temporary) {
            FileName.withCString(temporary) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode_t(mode)) }
        }
        if exactMode { _ = fchmod(fd, mode_t(mode)) }
        do throws(SystemError) {
            try writeAll(fd, bytes, path: temporary)
        } catch {
            close(fd)
            _ = removeFile(temporary)
            throw error
        }
        close(fd)
        let renamed = FileName.withCString(temporary) { from in FileName.withCString(path) { rename(from, $0) } }
        if renamed != 0 {
            let error = SystemError(call: "rename", path: path, errno: errno)
            _ = removeFile(temporary)
            throw error
        }
    }

    /// Writes `bytes` to `path` so that a crash at any moment leaves the old file or the new one,
    /// never part of either: a new temporary file in the same folder, written and `fsync`ed, then
    /// `rename`d over the path, then the folder `fsync`ed. The temporary is created with
    /// `O_EXCL | O_NOFOLLOW`: a file or link someone put there is never written through.
    public static func writeDurably(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o644) throws(SystemError) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let temporary = path + ".reswatch-tmp-\(getpid())"
        let fd = try retryingEINTR("open", temporary) {
            FileName.withCString(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode)) }
        }
        _ = fchmod(fd, mode_t(mode))
        do throws(SystemError) {
            try writeAll(fd, bytes, path: temporary)
            if fsync(fd) != 0 { throw SystemError(call: "fsync", path: temporary, errno: errno) }
        } catch {
            close(fd)
            _ = removeFile(temporary)
            throw error
        }
        close(fd)
        do throws(SystemError) { try renameFile(temporary, path) } catch {
            _ = removeFile(temporary)
            throw error
        }
        syncDirectory(folder)
    }

    /// `rename` (atomic within one file system).
    public static func renameFile(_ from: String, _ to: String) throws(SystemError) {
        _ = try retryingEINTR("rename", to) { FileName.withCString(from) { f in FileName.withCString(to) { rename(f, $0) } } }
    }

    /// `fsync` of a folder, so a rename or a new name in it survives a crash (best effort).
    public static func syncDirectory(_ path: String) {
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// `unlink`; false when it could not (the reason is rarely needed: the file may be gone already).
    @discardableResult
    public static func removeFile(_ path: String) -> Bool { FileName.withCString(path) { unlink($0) } == 0 }

    @discardableResult
    public static func removeDirectory(_ path: String) -> Bool { FileName.withCString(path) { rmdir($0) } == 0 }

    /// `chmod`.
    public static func changeMode(_ path: String, _ mode: UInt32) throws(SystemError) {
        _ = try retryingEINTR("chmod", path) { FileName.withCString(path) { chmod($0, mode_t(mode)) } }
    }

    /// `chown` (nil leaves the owner or the group as it is).
    public static func changeOwner(_ path: String, user: UInt32? = nil, group: UInt32?) throws(SystemError) {
        _ = try retryingEINTR("chown", path) {
            FileName.withCString(path) { chown($0, user ?? UInt32.max, group ?? UInt32.max) }
        }
    }

    /// The user this process runs as.
    public static var currentUser: UInt32 { getuid() }
}
