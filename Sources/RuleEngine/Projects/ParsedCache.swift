import ProjectModel
import Synchronization
import SystemCalls

/// Parsed plists and Contents.json files, keyed by the file's stat key like image facts. Split
/// in shards by path, each behind its own lock, like `FactsCache`: behind one lock, a scan's
/// two cores (three rules read each asset set's Contents.json) waited on each other in the
/// kernel, 2.5 % of the daemon's scan (`perf record`, 100,000 files).
final class ParsedCache: Sendable {
    private struct State {
        var plists: [HashedPath: (FileKey, Result<(PlistValue, PlistFormat), PlistError>)] = [:]
        var contents: [HashedPath: (FileKey, Result<AssetContents, ContentsError>)] = [:]
        /// Values rules derive from a file's bytes (a source file's required-reason API uses),
        /// by path, then tag: forgetting a path is one removal, not a scan of every entry.
        var derived: [HashedPath: [String: (FileKey, any Sendable)]] = [:]
    }

    private final class Shard: Sendable {
        let state = Mutex(State())
    }

    private let shards: [Shard]
    /// Parsed plists, and Contents.json files, kept at most (each shard keeps its share).
    let capacity: Int
    private let shardCapacity: Int
    private static let shardCount = 8

    init(capacity: Int = .max) {
        self.capacity = max(capacity, 16)
        shardCapacity = max(self.capacity / Self.shardCount, 2)
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Values derived from files kept at most (about 200 bytes each).
    static let derivedCapacity = 250_000

    private func shard(_ key: HashedPath) -> Shard { shards[Int(UInt(bitPattern: key.hash) % UInt(shards.count))] }

    private func trim(_ s: inout State) {
        let bound = shardCapacity
        if s.plists.count > bound { for k in s.plists.keys.prefix(bound / 4) { s.plists[k] = nil } }
        if s.contents.count > bound { for k in s.contents.keys.prefix(bound / 4) { s.contents[k] = nil } }
        // Derived values are small (a source's scan is a few entries) and one exists per source
        // file: their bound is per file, not the parsed files' one (a daemon's is 512).
        let derivedBound = Self.derivedCapacity / Self.shardCount
        if s.derived.count > derivedBound { for k in s.derived.keys.prefix(derivedBound / 4) { s.derived[k] = nil } }
    }

    func derived<T: Sendable>(_ path: String, tag: String, key: FileKey, compute: () -> T) -> T {
        let pathKey = HashedPath(path)
        let shard = shard(pathKey)
        if let hit = shard.state.withLock({ $0.derived[pathKey]?[tag] }), hit.0 == key, let value = hit.1 as? T { return value }
        let value = compute()
        shard.state.withLock {
            $0.derived[pathKey, default: [:]][tag] = (key, value)
            trim(&$0)
        }
        return value
    }

    func plist(_ path: String, key: FileKey, parse: () -> Result<(PlistValue, PlistFormat), PlistError>)
        -> Result<(PlistValue, PlistFormat), PlistError>
    {
        let pathKey = HashedPath(path)
        let shard = shard(pathKey)
        if let hit = shard.state.withLock({ $0.plists[pathKey] }), hit.0 == key { return hit.1 }
        let value = parse()
        shard.state.withLock {
            $0.plists[pathKey] = (key, value)
            trim(&$0)
        }
        return value
    }

    func contents(_ path: String, key: FileKey, parse: () -> Result<AssetContents, ContentsError>)
        -> Result<AssetContents, ContentsError>
    {
        let pathKey = HashedPath(path)
        let shard = shard(pathKey)
        if let hit = shard.state.withLock({ $0.contents[pathKey] }), hit.0 == key { return hit.1 }
        let value = parse()
        shard.state.withLock {
            $0.contents[pathKey] = (key, value)
            trim(&$0)
        }
        return value
    }

    /// Forgets every parsed plist and Contents.json, keeping the values derived from sources
    /// (a privacy rule reads every source's on each change: those it must not lose).
    func forgetParsed() {
        for shard in shards {
            shard.state.withLock {
                $0.plists = [:]
                $0.contents = [:]
            }
        }
    }

    func forget(_ path: String) {
        let pathKey = HashedPath(path)
        shard(pathKey).state.withLock {
            $0.plists[pathKey] = nil
            $0.contents[pathKey] = nil
            $0.derived[pathKey] = nil
        }
    }

    /// Parsed plists and Contents.json files held (for tests).
    var parsedCount: Int { shards.reduce(0) { sum, shard in sum + shard.state.withLock { $0.plists.count + $0.contents.count } } }
}
