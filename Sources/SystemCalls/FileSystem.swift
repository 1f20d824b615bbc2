#if canImport(Glibc)
    import Glibc
#endif

/// What `stat` says about a path: enough to key caches and tell kinds of entries apart.
public struct FileStatus: Hashable, Sendable {
    public enum Kind: Sendable, Hashable { case regular, directory, symlink, other }
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modifiedNanoseconds: Int64
    public let kind: Kind
    public let mode: UInt32
    /// The owner's uid (exec rules from files not owned by the user or root need an opt-in).
    public var owner: UInt32 = 0
    /// The group (fits the struct's padding: a file's stat costs no more memory).
    public var group: UInt32 = 0

    public init(device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, kind: Kind, mode: UInt32) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.kind = kind
        self.mode = mode
    }

    /// The facts cache key: (device, inode, size, mtime ns).
    public var key: FileKey { FileKey(device: device, inode: inode, size: size, modifiedNanoseconds: modifiedNanoseconds) }
}

/// Identity of one version of a file's content, as far as `stat` can tell.
public struct FileKey: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modifiedNanoseconds: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }
}

/// One entry of a directory listing.
public struct DirectoryEntry: Hashable, Sendable {
    public let name: String
    public let isDirectory: Bool

    public init(name: String, isDirectory: Bool) {
        self.name = name
        self.isDirectory = isDirectory
    }
}

/// Thin, typed wrappers over the libc calls reswatch makes on the file system.
public enum FileSystem {
    /// `lstat`: symbolic links are reported as links, not followed.
    public static func status(_ path: String) throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try retryingEINTR("lstat", path) { FileName.withCString(path) { lstat($0, &st) } }
        return FileStatus(st)
    }

    /// `fstat` of an open descriptor (2: where stderr goes).
    public static func descriptorStatus(_ fd: Int32) throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try retryingEINTR("fstat", "descriptor \(fd)") { fstat(fd, &st) }
        return FileStatus(st)
    }

    /// `stat`, following links.
    public static func statusFollowingLinks(_ path: String) throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try retryingEINTR("stat", path) { FileName.withCString(path) { stat($0, &st) } }
        return FileStatus(st)
    }

    /// Whole file, refusing files larger than `limit` bytes (EFBIG). Never blocks: the file is opened
    /// with O_NONBLOCK (a FIFO named Icon.png would otherwise wait for a writer forever), and only a
    /// regular file is read (a FIFO, device, socket or directory is an error that says which).
    public static func readFile(_ path: String, limit: Int = 64 << 20) throws(SystemError) -> [UInt8] {
        let fd = try retryingEINTR("open", path) { FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) } }
        defer { close(fd) }
        var st = stat()
        _ = try retryingEINTR("fstat", path) { fstat(fd, &st) }
        let type = st.st_mode & S_IFMT
        if type == S_IFDIR { throw SystemError(call: "read", path: path, errno: EISDIR) }
        if type != S_IFREG {
            let what =
                switch type {
                case S_IFIFO: "a FIFO (named pipe)"
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                case S_IFSOCK: "a socket"
                default: "not a regular file"
                }
            throw SystemError(call: "read", path: path, errno: EINVAL, detail: "\(what), not a regular file: not read")
        }
        // Built only when thrown (its message was built for every file read, a cost in a cold check's profile).
        var tooLarge: SystemError {
            SystemError(
                call: "read", path: path, errno: EFBIG,
                detail:
                    "larger than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"), the limit for this kind of file: not read")
        }
        if Int(st.st_size) > limit { throw tooLarge }
        let expected = max(Int(st.st_size), 0)
        var bytes = [UInt8](repeating: 0, count: expected)
        var filled = 0
        while true {
            // Stop once the stat size is read (saves a read per file); size-0 files (procfs) read to EOF.
            if filled == expected && expected > 0 { break }
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: 4096)) }
            let capacity = bytes.count - filled
            let got = bytes.withUnsafeMutableBytes { buffer in
                retryingRead(fd, buffer.baseAddress! + filled, capacity)
            }
            if got < 0 { throw SystemError(call: "read", path: path, errno: Int32(-got)) }
            if got == 0 { break }
            filled += got
            if filled > limit { throw tooLarge }
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Entries of a directory, without `.` and `..`, sorted by name.
    /// `sorted: false` leaves them in `readdir` order (a caller that only looks for a name).
    public static func listDirectory(_ path: String, sorted: Bool = true) throws(SystemError) -> [DirectoryEntry] {
        var entries: [DirectoryEntry] = []
        try readEntries(path) { entry, _ throws(SystemError) in
            let name = Self.entryName(entry)
            var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                isDirectory = (try? status(path + "/" + name).kind) == .directory
            }
            entries.append(DirectoryEntry(name: name, isDirectory: isDirectory))
        }
        if sorted { entries.sort { $0.name < $1.name } }
        return entries
    }

    /// The names of a directory's subdirectories (not links to one), in `readdir` order. Only
    /// those names are made into strings: a folder of 10,000 icons costs no 10,000 strings and
    /// no sort (the watcher lists every folder it adds a watch to). An entry `readdir` could not
    /// type is typed by its `lstat`.
    public static func subdirectoryNames(_ path: String) throws(SystemError) -> [String] {
        var names: [String] = []
        try readEntries(path) { entry, fd throws(SystemError) in
            switch entry.pointee.d_type {
            case UInt8(DT_DIR): names.append(entryName(entry))
            case UInt8(DT_UNKNOWN):
                var st = stat()
                if fstatat(fd, entryNamePointer(entry), &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT == S_IFDIR {
                    names.append(entryName(entry))
                }
            default: break
            }
        }
        return names
    }

    /// Entries of a directory (without `.` and `..`, sorted by name), each non-directory with its
    /// `lstat`, taken relative to the open directory (`fstatat`): no path is built per entry and
    /// the kernel does not walk the directory's path again for each. An entry that vanished
    /// meanwhile is left out; an entry `readdir` could not type is typed by its stat.
    ///
    /// Any other `lstat` failure is the directory's: one that can be read but not searched (mode
    /// `r--`) lists its names but lets none be looked up, and leaving them out would make its files
    /// silently absent. That throws, so the caller says the directory was not checked.
    public static func listDirectoryWithStatus(_ path: String) throws(SystemError) -> [(name: String, status: FileStatus?)] {
        var entries: [(name: String, status: FileStatus?)] = []
        try readEntries(path) { entry, fd throws(SystemError) in
            if entry.pointee.d_type == UInt8(DT_DIR) {
                entries.append((entryName(entry), nil))
                return
            }
            var st = stat()
            var result: Int32
            repeat { result = fstatat(fd, entryNamePointer(entry), &st, AT_SYMLINK_NOFOLLOW) } while result != 0 && Glibc.errno == EINTR
            if result != 0 {
                let code = Glibc.errno
                if code == ENOENT { return }
                throw SystemError(
                    call: "lstat", path: path + "/" + entryName(entry), errno: code,
                    detail: code == EACCES ? "its names can be listed but not looked up (no search permission)" : nil)
            }
            let status = FileStatus(st)
            entries.append((entryName(entry), status.kind == .directory ? nil : status))
        }
        entries.sort { $0.name < $1.name }
        return entries
    }

    /// Calls `body` with each entry of a directory but `.` and `..`, and the directory's fd.
    private static func readEntries(
        _ path: String, _ body: (UnsafeMutablePointer<dirent>, Int32) throws(SystemError) -> Void
    ) throws(SystemError) {
        guard let dir = FileName.withCString(path, { opendir($0) }) else {
            throw SystemError(call: "opendir", path: path, errno: Glibc.errno)
        }
        defer { closedir(dir) }
        while true {
            Glibc.errno = 0
            guard let entry = readdir(dir) else {
                let code = Glibc.errno
                if code == 0 { break }
                if code == EINTR { continue }
                throw SystemError(call: "readdir", path: path, errno: code)
            }
            let raw = entryNamePointer(entry)
            if raw[0] == 0x2E && (raw[1] == 0 || (raw[1] == 0x2E && raw[2] == 0)) { continue }  // "." and ".."
            try body(entry, dirfd(dir))
        }
    }

    /// The name in place: `entry.pointee.d_name` would copy all 256 bytes of the tuple, but a
    /// record is only as long as its name, so that copy reads past the end of readdir's buffer
    /// (AddressSanitizer: heap-buffer-overflow at the last entry).
    static func entryNamePointer(_ entry: UnsafeMutablePointer<dirent>) -> UnsafePointer<CChar> {
        (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self)
    }

    static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let start = UnsafeRawPointer(entryNamePointer(entry))
        return FileName.decode(
            UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: strlen(entryNamePointer(entry))))
    }

    /// `realpath`: the canonical absolute path (links resolved), or nil when it cannot be resolved.
    public static func realPath(_ path: String) -> String? {
        FileName.withCString(path) { p -> String? in
            guard let resolved = realpath(p, nil) else { return nil }
            defer { free(resolved) }
            let real = FileName.decode(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)).bindMemory(to: UInt8.self))
            return real.utf8.elementsEqual(path.utf8) ? path : real  // as `absolutePath`: the same bytes share storage
        }
    }

    /// `access(R_OK)`.
    public static func isReadable(_ path: String) -> Bool { FileName.withCString(path) { access($0, R_OK) } == 0 }

    /// A regular file (or a link to one) this process may execute.
    public static func isExecutable(_ path: String) -> Bool {
        guard let s = try? statusFollowingLinks(path), s.kind == .regular else { return false }
        return FileName.withCString(path) { access($0, X_OK) } == 0
    }

    /// Absolute, `.`/`..`-free form of a path (no link resolution) against the working directory.
    public static func absolutePath(_ path: String) -> String {
        var base = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd =
                getcwd(&buffer, buffer.count).map { p in
                    FileName.decode(UnsafeRawBufferPointer(start: p, count: strlen(p)).bindMemory(to: UInt8.self))
                } ?? "/"
            base = cwd + "/" + path
        }
        var parts: [Substring] = []
        for part in base.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        let normal = "/" + parts.joined(separator: "/")
        // A path already in this form is handed back as it is: its storage is shared, not copied
        // (the daemon keeps each root's path in several places, for 1,000 roots each copy 64 kB).
        // Bytes compared, not characters: `==` holds for two spellings of one accented letter,
        // which are two names on Linux.
        return normal.utf8.elementsEqual(path.utf8) ? path : normal
    }
}

/// `read` retrying EINTR; returns bytes read, or minus errno.
private func retryingRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    while true {
        let n = read(fd, buffer, count)
        if n >= 0 { return n }
        let code = Glibc.errno
        if code != EINTR { return -Int(code) }
    }
}

extension FileStatus {
    init(_ st: stat) {
        let type = st.st_mode & S_IFMT
        let kind: Kind =
            switch type {
            case S_IFREG: .regular
            case S_IFDIR: .directory
            case S_IFLNK: .symlink
            default: .other
            }
        self.init(
            device: UInt64(st.st_dev),
            inode: UInt64(st.st_ino),
            size: Int64(st.st_size),
            modifiedNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
            kind: kind,
            mode: UInt32(st.st_mode))
        owner = UInt32(st.st_uid)
        group = UInt32(st.st_gid)
    }
}
