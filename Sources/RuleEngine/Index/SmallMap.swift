/// A dictionary for the tables each of the daemon's roots keeps (its evaluation records, their
/// reverse index, its projects), which for most roots hold a few dozen entries: up to `limit`
/// entries it is one array of pairs, searched in order; past that a `Dictionary`, kept until
/// `removeAll`.
///
/// A small `Dictionary` is mostly room: a root of 100 files had 33 records in 64 buckets and 22
/// reverse-index entries in 32, each table with its own header, where an array of pairs after
/// `compact()` holds each entry once (docs/performance.md). A search compares at most `limit`
/// keys; the tables searched have keys of a few integers.
struct SmallMap<Key: Hashable, Value> {
    /// Past this many entries the map is a `Dictionary`.
    static var limit: Int { 64 }

    private var pairs: [(key: Key, value: Value)] = []
    private var map: [Key: Value] = [:]
    private var indexed = false

    init() {}

    var count: Int { indexed ? map.count : pairs.count }
    var isEmpty: Bool { count == 0 }
    var keys: [Key] { indexed ? Array(map.keys) : pairs.map(\.key) }
    var values: [Value] { indexed ? Array(map.values) : pairs.map(\.value) }

    private func position(of key: Key) -> Int? {
        for i in pairs.indices where pairs[i].key == key { return i }
        return nil
    }

    /// Set to nil, the key goes. Changing part of a value through this subscript copies it out
    /// and back: `update` changes it where it is.
    subscript(key: Key) -> Value? {
        get {
            if indexed { return map[key] }
            return position(of: key).map { pairs[$0].value }
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Sets `key`'s value; returns the one it replaces.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        if indexed { return map.updateValue(value, forKey: key) }
        if let i = position(of: key) {
            defer { pairs[i].value = value }
            return pairs[i].value
        }
        pairs.append((key, value))
        if pairs.count > Self.limit { index(reservingFor: pairs.count) }
        return nil
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        if indexed { return map.removeValue(forKey: key) }
        guard let i = position(of: key) else { return nil }
        // Order means nothing here, as in a dictionary: the last pair fills the gap.
        pairs.swapAt(i, pairs.count - 1)
        return pairs.removeLast().value
    }

    /// Runs `body` on `key`'s value in place, first adding `defaultValue` if the key is new (a
    /// value changed where it is stored, not copied out and back: for a value holding a
    /// collection, the copy would copy the collection).
    mutating func update<R>(_ key: Key, default defaultValue: @autoclosure () -> Value, _ body: (inout Value) -> R) -> R {
        if indexed { return body(&map[key, default: defaultValue()]) }
        if let i = position(of: key) { return body(&pairs[i].value) }
        var value = defaultValue()
        let result = body(&value)
        updateValue(value, forKey: key)
        return result
    }

    /// Runs `body` on `key`'s value in place; nil when the key is not there.
    mutating func updateIfPresent<R>(_ key: Key, _ body: (inout Value) -> R) -> R? {
        if indexed {
            guard let i = map.index(forKey: key) else { return nil }
            return body(&map.values[i])
        }
        guard let i = position(of: key) else { return nil }
        return body(&pairs[i].value)
    }

    /// Room for `count` entries in all: past `limit`, the dictionary, at once.
    mutating func reserveCapacity(_ count: Int) {
        if indexed {
            map.reserveCapacity(count)
        } else if count > Self.limit {
            index(reservingFor: count)
        }
    }

    mutating func removeAll() { self = SmallMap() }

    /// Gives a small map's pairs an array of their exact size (appended one by one, it had room
    /// for up to twice as many).
    mutating func compact() {
        guard !indexed, pairs.capacity > pairs.count else { return }
        var exact: [(key: Key, value: Value)] = []
        exact.reserveCapacity(pairs.count)
        exact.append(contentsOf: pairs)
        pairs = exact
    }

    private mutating func index(reservingFor count: Int) {
        var map = [Key: Value](minimumCapacity: count)
        for (key, value) in pairs { map[key] = value }
        pairs = []
        self.map = map
        indexed = true
    }
}

extension SmallMap: Sendable where Key: Sendable, Value: Sendable {}

extension SmallMap: Sequence {
    /// The pairs, then the dictionary's (one of the two is empty).
    struct Iterator: IteratorProtocol {
        fileprivate var pairs: IndexingIterator<[(key: Key, value: Value)]>
        fileprivate var map: Dictionary<Key, Value>.Iterator

        mutating func next() -> (key: Key, value: Value)? { pairs.next() ?? map.next() }
    }

    func makeIterator() -> Iterator { Iterator(pairs: pairs.makeIterator(), map: map.makeIterator()) }
    var underestimatedCount: Int { count }
}
