/// A dictionary whose values sit side by side in one array, found through a dictionary of
/// positions: the daemon's table of watched roots.
///
/// A `Dictionary` holds its values in its buckets, and keeps between a quarter and half of them
/// empty: 1,000 roots of 224 bytes each sat in 2,048 buckets, 0.49 MB. Here the buckets hold a
/// position (8 bytes), and the values one array: 0.29 MB (docs/performance.md). A value is changed
/// where it is, through the subscript, as in a `Dictionary` (it is moved out for the change and
/// back, never copied: a root's findings are not copied on each delta). Order means nothing, as
/// in a dictionary: a removal moves the last entry into the gap.
struct DenseMap<Key: Hashable, Value> {
    private var positions: [Key: Int] = [:]
    /// Nil only while its value is out for a change (`subscript`'s `_modify`).
    private var entries: [(key: Key, value: Value?)] = []

    init() {}

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    var keys: LazyMapSequence<[(key: Key, value: Value?)], Key> { entries.lazy.map(\.key) }
    var values: LazyMapSequence<[(key: Key, value: Value?)], Value> { entries.lazy.map { $0.value! } }

    /// Set to nil, the key goes; a value changed through it is changed in place.
    subscript(key: Key) -> Value? {
        get { positions[key].map { entries[$0].value! } }
        _modify {
            if let i = positions[key] {
                var value = entries[i].value.take()
                defer {
                    if let value { entries[i].value = value } else { remove(at: i) }
                }
                yield &value
            } else {
                var value: Value?
                defer {
                    if let value {
                        positions[key] = entries.count
                        entries.append((key, value))
                    }
                }
                yield &value
            }
        }
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let i = positions[key] else { return nil }
        let value = entries[i].value
        remove(at: i)
        return value
    }

    private mutating func remove(at i: Int) {
        positions[entries[i].key] = nil
        let last = entries.count - 1
        if i != last {
            entries.swapAt(i, last)
            positions[entries[i].key] = i
        }
        entries.removeLast()
    }
}

extension DenseMap: Sequence {
    func makeIterator() -> some IteratorProtocol<(key: Key, value: Value)> {
        entries.lazy.map { ($0.key, $0.value!) }.makeIterator()
    }
}

extension DenseMap: Sendable where Key: Sendable, Value: Sendable {}
