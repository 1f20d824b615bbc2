import Synchronization
import SystemCalls

/// Per-path cache of image facts keyed by (device, inode, size, mtime ns): an unchanged file is never
/// read twice, and pixels are decoded only when a rule asks for them. Safe to share across threads.
public final class FactsCache: Sendable {
    /// One file's facts. Pixels are decoded for few files (an icon with alpha, `full-decode`),
    /// so they are held out of line: inline, they made every entry of the table twice the size
    /// (about 250 bytes a slot, not 130), for a header-only entry as much as for any other.
    private struct Entry {
        var header: ImageFacts?
        private var boxed: Pixels?

        var pixels: PixelFacts? {
            get { boxed?.facts }
            set { boxed = newValue.map(Pixels.init) }
        }
    }

    private final class Pixels: Sendable {
        let facts: PixelFacts
        init(_ facts: PixelFacts) { self.facts = facts }
    }

    private struct State {
        var entries: [HashedPath: Entry] = [:]
        var fileReads = 0
        var decodes = 0
    }

    private final class Shard: Sendable {
        let state = Mutex(State())
    }

    /// Shards, each behind its own lock (evaluations on every core look files up at once).
    private let shards: [Shard]
    /// Entries kept at most; past it a quarter of a shard is evicted (the daemon bounds its
    /// memory this way; a one-shot check keeps everything).
    public let capacity: Int
    private let shardCapacity: Int

    public init(capacity: Int = .max) {
        self.capacity = max(capacity, 16)
        let count = 16
        self.shards = (0..<count).map { _ in Shard() }
        self.shardCapacity = max(self.capacity / count, 4)
    }

    private func shard(_ key: HashedPath) -> Shard { shards[Int(UInt(bitPattern: key.hash) % UInt(shards.count))] }

    /// Keeps `facts` for `path`, dropping what is known of another version of the file. Past the
    /// capacity a quarter of the shard goes first (a one-shot check, unbounded, never evicts).
    private static func store(_ s: inout State, _ path: HashedPath, capacity: Int, _ update: (inout Entry) -> Void) {
        if s.entries.count >= capacity, s.entries[path] == nil {
            let evicted = Array(s.entries.keys.prefix(max(capacity / 4, 1)))
            for key in evicted { s.entries[key] = nil }
        }
        // One probe: the entry is changed in place.
        update(&s.entries[path, default: Entry()])
    }

    /// Header facts for `path`, reading the file only if its stat key changed since the last read.
    /// A caller that has just stat'ed the file passes its key to save the `stat`.
    public func image(at path: String, key known: FileKey? = nil) -> Result<ImageFacts, SystemError> {
        lookup(path, known, decodes: false, cached: { $0.header }, store: { $0.header = $1 }) { PNGReader.inspect(bytes: $0, key: $1) }
    }

    /// Decoded pixel facts for `path` (full libpng decode), cached by the same key.
    public func pixels(at path: String, key known: FileKey? = nil) -> Result<PixelFacts, SystemError> {
        lookup(path, known, decodes: true, cached: { $0.pixels }, store: { $0.pixels = $1 }) { PNGReader.decode(bytes: $0, key: $1) }
    }

    /// The one cache path: stat (unless the key is known), hit if the key matches, else read the
    /// file, compute, and keep the other kind of fact only if it is of the same version. Plain
    /// closures pick the field (key paths were resolved at run time, on every lookup).
    private func lookup<T: Sendable>(
        _ path: String, _ known: FileKey?, decodes: Bool, cached: (Entry) -> T?, store: (inout Entry, T) -> Void,
        compute: ([UInt8], FileKey) -> T
    ) -> Result<T, SystemError> where T: Keyed {
        let key: FileKey
        if let known {
            key = known
        } else {
            do { key = try FileSystem.statusFollowingLinks(path).key } catch { return .failure(error) }
        }
        let pathKey = HashedPath(path)
        let shard = shard(pathKey)
        if let hit = shard.state.withLock({ s in s.entries[pathKey].flatMap(cached) }), hit.key == key { return .success(hit) }
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path) } catch { return .failure(error) }
        let facts = compute(bytes, key)
        let capacity = shardCapacity
        shard.state.withLock {
            $0.fileReads += 1
            if decodes { $0.decodes += 1 }
            Self.store(&$0, pathKey, capacity: capacity) { entry in
                if entry.header?.key != key { entry.header = nil }
                if entry.pixels?.key != key { entry.pixels = nil }
                store(&entry, facts)
            }
        }
        return .success(facts)
    }

    /// Makes room for the facts of `count` more files (a scan knows how many it may read): a
    /// shard that grew under its lock kept the other cores waiting on it, in the kernel.
    public func reserve(_ count: Int) {
        let perShard = min(count, capacity) / shards.count + 1
        for shard in shards {
            shard.state.withLock { s in
                if s.entries.count + perShard <= shardCapacity { s.entries.reserveCapacity(s.entries.count + perShard) }
            }
        }
    }

    /// Forgets every path below `directory` (a root rescanned from scratch; other roots that
    /// share the cache keep theirs).
    public func forget(under directory: String) {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for shard in shards {
            shard.state.withLock { s in
                guard s.entries.keys.contains(where: { $0.path.hasPrefix(prefix) }) else { return }
                s.entries = s.entries.filter { !$0.key.path.hasPrefix(prefix) }
            }
        }
    }

    /// Drops what is known about a path (a deleted file).
    public func forget(_ path: String) {
        let key = HashedPath(path)
        _ = shard(key).state.withLock { $0.entries.removeValue(forKey: key) }
    }

    /// How many times file contents were read / fully decoded (for tests and `status`).
    public var counters: (fileReads: Int, decodes: Int) {
        shards.reduce((0, 0)) { sum, shard in shard.state.withLock { (sum.0 + $0.fileReads, sum.1 + $0.decodes) } }
    }

    public var count: Int { shards.reduce(0) { sum, shard in sum + shard.state.withLock { $0.entries.count } } }

    func clear() { for shard in shards { shard.state.withLock { $0.entries = [:] } } }
}

extension FactsCache {
    /// Empties the cache (a full rescan from scratch).
    public func forgetAll() { clear() }
}

/// Facts that know which version of the file they describe.
protocol Keyed { var key: FileKey { get } }
extension ImageFacts: Keyed {}
extension PixelFacts: Keyed {}
