import ImageFacts

/// The caches of file facts (image headers and pixels, parsed plists and Contents.json) that
/// several engines share: the daemon's roots draw on one bound, not one each. Entries are keyed by
/// absolute path and checked against the file's stat key at every use, so a root's engine never
/// sees another's stale facts. 1,000 roots of 100 files kept every one of their 100,000 images'
/// facts under a bound of 4,096 entries per root: 43 kB a root (docs/performance.md).
public final class EngineCaches: Sendable {
    public let facts: FactsCache
    let parsed: ParsedCache

    /// `capacity` image facts at most, and an eighth of that of parsed files.
    public init(capacity: Int = .max) {
        facts = FactsCache(capacity: capacity)
        parsed = ParsedCache(capacity: capacity / 8)
    }

    /// Drops what a scan left in the caches: image facts and parsed files. A scan fills them with
    /// whatever it read last, an arbitrary part of the tree rather than what is edited next, and
    /// at 100,000 files that was 3 MB held for the daemon's life (docs/performance.md). A change
    /// reads again what it needs (a set's images' headers, a few microseconds each); the values
    /// derived from sources stay, since a privacy rule reads all of them on every change.
    public func shedScanLeftovers() {
        facts.forgetAll()
        parsed.forgetParsed()
    }
}
