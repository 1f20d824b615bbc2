/// A path with its hash computed once, where it is made: a table keyed by it hashes no bytes
/// when it probes (a caller computes it outside a lock, and picks a shard by it), and compares
/// the hash before the bytes (paths share long prefixes, so comparing bytes first made every
/// probe a long `memcmp`). The facts cache and the parsed-file cache key their tables by it.
public struct HashedPath: Hashable, Sendable {
    public let hash: Int
    public let path: String

    @inlinable public init(_ path: String) {
        self.path = path
        self.hash = path.hashValue
    }

    @inlinable public static func == (a: HashedPath, b: HashedPath) -> Bool { a.hash == b.hash && a.path == b.path }
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
