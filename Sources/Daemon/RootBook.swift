/// The daemon's roots as bookkeeping, a value of its own: the roots watched (each with its record,
/// told from a later root at the same path by its token), the configured roots `start` has not
/// reached yet, and the rules that decide whether a path may become a root. The core keeps one
/// (`DaemonCore.roots`); `RootBookTests` drive it alone.
struct RootBook<Record> {
    private var watched = DenseMap<String, Record>()
    /// Configured roots not added yet. The socket may answer before `start` runs, and `start`
    /// scans the roots one after another: `status` lists these as scanning, so that no reply says
    /// the daemon watches fewer roots than it was told to (a client that waits for "no root
    /// scanning" would otherwise take a daemon that has not begun for a ready one).
    private(set) var configured: [String]
    private var lastToken: UInt64 = 0

    init(configured: [String] = []) { self.configured = configured }

    /// What adding `root` (absolute) means.
    enum Admission: Equatable {
        /// It is watched already: nothing to do.
        case watchedAlready
        /// It lies in a configured root not reached yet: that root is added, as `start` would.
        case inConfigured(String)
        /// It is in, or holds, this watched root: refused (a file would be judged twice).
        case overlaps(String)
        /// It becomes a root.
        case admitted
    }

    func admission(of root: String) -> Admission {
        if watched[root] != nil { return .watchedAlready }
        if let waiting = configured.first(where: { Self.within(root, $0) }), waiting != root { return .inConfigured(waiting) }
        if let other = watched.keys.first(where: { Self.within(root, $0) || Self.within($0, root) }) { return .overlaps(other) }
        return .admitted
    }

    /// A token no root had before.
    mutating func nextToken() -> UInt64 {
        lastToken += 1
        return lastToken
    }

    /// `root` is watched with `record`; it is no longer waiting as a configured root.
    mutating func add(_ root: String, _ record: Record) {
        watched[root] = record
        configured.removeAll { $0 == root }
    }

    /// Takes a configured root out before its turn (`watch/remove`, or `start` gave up on it);
    /// false if it was not waiting.
    @discardableResult
    mutating func dropConfigured(_ root: String) -> Bool {
        guard watched[root] == nil, configured.contains(root) else { return false }
        configured.removeAll { $0 == root }
        return true
    }

    /// `start` has added every configured root it could: none waits any more.
    mutating func startFinished() { configured = [] }

    mutating func removeValue(forKey root: String) -> Record? { watched.removeValue(forKey: root) }

    subscript(root: String) -> Record? {
        get { watched[root] }
        _modify { yield &watched[root] }
    }

    var keys: LazyMapSequence<[(key: String, value: Record?)], String> { watched.keys }
    var values: LazyMapSequence<[(key: String, value: Record?)], Record> { watched.values }
    var count: Int { watched.count }

    /// Configured roots still waiting for their turn.
    var waiting: [String] { configured.filter { watched[$0] == nil } }

    /// The roots watched, and while the daemon starts, the configured roots it has not reached
    /// yet (`status` lists them `scanning`, waiting; `watch/remove` takes them out); sorted.
    var paths: [String] { Set(watched.keys).union(configured).sorted() }

    /// `path` is a root, or a configured root not reached yet.
    func isRootOrWaiting(_ path: String) -> Bool { watched[path] != nil || configured.contains(path) }

    /// `a` is `b` or lies in it, on whole path segments, "/" included ("/" + "/" is no prefix of
    /// anything).
    static func within(_ a: String, _ b: String) -> Bool { a == b || a.hasPrefix(b == "/" ? "/" : b + "/") }
}

extension RootBook: Sequence {
    /// The watched roots and their records, in the order they were added.
    func makeIterator() -> some IteratorProtocol<(key: String, value: Record)> { watched.makeIterator() }
}

extension RootBook: Sendable where Record: Sendable {}
