import Synchronization

/// Parsed plists and Contents.json files, keyed by the file's stat key like image facts.
final class ParsedCache: Sendable {
    private struct State {
        var plists: [String: (FileKey, Result<(PlistValue, PlistFormat), PlistError>)] = [:]
        var contents: [String: (FileKey, Result<AssetContents, ContentsError>)] = [:]
    }
    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = .max) { self.capacity = max(capacity, 16) }

    private func trim(_ s: inout State) {
        if s.plists.count > capacity { for k in s.plists.keys.prefix(capacity / 4) { s.plists[k] = nil } }
        if s.contents.count > capacity { for k in s.contents.keys.prefix(capacity / 4) { s.contents[k] = nil } }
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

    func forget(_ path: String) {
        state.withLock {
            $0.plists[path] = nil
            $0.contents[path] = nil
        }
    }
}
