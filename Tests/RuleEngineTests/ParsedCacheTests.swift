import Dispatch
import ProjectModel
import Synchronization
import SystemCalls
import Testing

@testable import RuleEngine

/// The parsed-file cache in shards: each file parsed once per version, whichever shard holds
/// it, the bound held across shards, and a forgotten file parsed again.
@Suite struct ParsedCacheTests {
    static let contents = Array(#"{"images":[],"info":{"version":1,"author":"xcode"}}"#.utf8)

    static func key(_ n: Int) -> FileKey { FileKey(device: 1, inode: UInt64(n), size: 10, modifiedNanoseconds: 5) }

    @Test func aFileIsParsedOncePerVersionAndForgottenOnRequest() {
        let cache = ParsedCache()
        var parses = 0
        let parse: () -> Result<AssetContents, ContentsError> = {
            parses += 1
            return AssetContentsReader.parse(Self.contents)
        }
        for _ in 0..<3 { _ = cache.contents("/a/Contents.json", key: Self.key(1), parse: parse) }
        #expect(parses == 1)
        _ = cache.contents("/a/Contents.json", key: Self.key(2), parse: parse)
        #expect(parses == 2, "a new version of the file is parsed again")
        cache.forget("/a/Contents.json")
        _ = cache.contents("/a/Contents.json", key: Self.key(2), parse: parse)
        #expect(parses == 3, "a forgotten file is parsed again")
    }

    @Test func theBoundHoldsOverAllShards() {
        let cache = ParsedCache(capacity: 64)
        for n in 0..<1_000 {
            _ = cache.contents("/set\(n)/Contents.json", key: Self.key(n)) { AssetContentsReader.parse(Self.contents) }
        }
        #expect(cache.parsedCount <= 64 && cache.parsedCount >= 32, "\(cache.parsedCount)")
    }

    /// Two cores reading the same files at once: every reader gets the file's value, and none
    /// is lost or doubled in the table.
    @Test func readersOnTwoCoresEachGetTheFilesValue() {
        let cache = ParsedCache()
        let paths = (0..<200).map { "/App/Assets.xcassets/Set\($0).appiconset/Contents.json" }
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for (n, path) in paths.enumerated() where cache.derived(path, tag: "n", key: Self.key(n), compute: { n }) != n {
                wrong.withLock { $0 += 1 }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
        for (n, path) in paths.enumerated() {
            #expect(cache.derived(path, tag: "n", key: Self.key(n)) { -1 } == n)
        }
    }
}
