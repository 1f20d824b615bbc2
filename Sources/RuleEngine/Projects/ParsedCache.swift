import ProjectModel
import Synchronization
import SystemCalls

/// Parsed plists and Contents.json files, keyed by the file's stat key like image facts.
final class ParsedCache: Sendable {
    private struct State {
        var plists: [String: (FileKey, Result<(PlistValue, PlistFormat), PlistError>)] = [:]
        var contents: [String: (FileKey, Result<AssetContents, ContentsError>)] = [:]
        /// Values rules derive from a file's bytes (a source file's required-reason API uses),
        /// by path and the rule's tag.
        /// By path, then tag: forgetting a path is one removal, not a scan of every entry.
        var derived: [String: [String: (FileKey, any Sendable)]] = [:]
    }
    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = .max) { self.capacity = max(capacity, 16) }

    /// Values derived from files kept at most (about 200 bytes each).
    static let derivedCapacity = 250_000

    private func trim(_ s: inout State) {
        if s.plists.count > capacity { for k in s.plists.keys.prefix(capacity / 4) { s.plists[k] = nil } }
        if s.contents.count > capacity { for k in s.contents.keys.prefix(capacity / 4) { s.contents[k] = nil } }
        // Derived values are small (a source's scan is a few entries) and one exists per source
        // file: their bound is per file, not the parsed files' one (a daemon's is 512).
        if s.derived.count > Self.derivedCapacity { for k in s.derived.keys.prefix(Self.derivedCapacity / 4) { s.derived[k] = nil } }
    }

    func derived<T: Sendable>(_ path: String, tag: String, key: FileKey, compute: () -> T) -> T {
        if let hit = state.withLock({ $0.derived[path]?[tag] }), hit.0 == key, let value = hit.1 as? T { return value }
        let value = compute()
        state.withLock {
            $0.derived[path, default: [:]][tag] = (key, value)
            trim(&$0)
        }
        return value
    }

    func plist(_ path: String, key: FileKey, parse: () -> Result<(PlistValue, PlistFormat), PlistError>)
        -> Result<(PlistValue, PlistFormat), PlistError>
    {
        if let hit = state.withLock({ $0.plists[path] }), hit.0 == key { return hit.1 }
        let value = parse()
        state.withLock {
            $0.plists[path] = (key, value)
            trim(&$0)
        }
        return value
    }

    func contents(_ path: String, key: FileKey, parse: () -> Result<AssetContents, ContentsError>)
        -> Result<AssetContents, ContentsError>
    {
        if let hit = state.withLock({ $0.contents[path] }), hit.0 == key { return hit.1 }
        let value = parse()
        state.withLock {
            $0.contents[path] = (key, value)
            trim(&$0)
        }
        return value
    }

    /// Forgets every parsed plist and Contents.json, keeping the values derived from sources
    /// (a privacy rule reads every source's on each change: those it must not lose).
    func forgetParsed() {
        state.withLock {
            $0.plists = [:]
            $0.contents = [:]
        }
    }

    func forget(_ path: String) {
        state.withLock {
            $0.plists[path] = nil
            $0.contents[path] = nil
            $0.derived[path] = nil
        }
    }
}
