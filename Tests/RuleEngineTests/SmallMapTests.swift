import TestSupport
import Testing

@testable import RuleEngine

/// The evaluation store's tables: an array of pairs up to `SmallMap.limit` entries, a dictionary
/// past it. Either way it answers as a `Dictionary` would, and changes a value where it is.
@Suite struct SmallMapTests {
    /// 20,000 random sets, updates and removals over 40 keys (never past the limit) and over 400
    /// (past it and back down), with `compact()` now and then, checked after each step against a
    /// `Dictionary` doing the same.
    @Test(arguments: [40, 400]) func randomChangesMatchADictionary(distinct: Int) {
        var map = SmallMap<Int, Int>()
        var reference: [Int: Int] = [:]
        var generator = SeededGenerator(seed: 7)
        for step in 0..<20_000 {
            let key = Int.random(in: 0..<distinct, using: &generator)
            switch Int.random(in: 0..<7, using: &generator) {
            case 0, 1:
                #expect(map.updateValue(step, forKey: key) == reference.updateValue(step, forKey: key))
            case 2:
                let added = map.update(key, default: 0) { value -> Int in
                    value += 1
                    return value
                }
                reference[key, default: 0] += 1
                #expect(added == reference[key])
            case 3:
                let changed = map.updateIfPresent(key) { value -> Int in
                    value *= 2
                    return value
                }
                if reference[key] != nil { reference[key]! *= 2 }
                #expect(changed == reference[key])
            case 4:
                #expect(map.removeValue(forKey: key) == reference.removeValue(forKey: key))
            case 5 where step % 2 == 0:
                map[key] = step % 4 == 0 ? nil : step
                reference[key] = step % 4 == 0 ? nil : step
            default:
                map.compact()
            }
            #expect(map.count == reference.count && map[key] == reference[key], "step \(step)")
        }
        #expect(Dictionary(uniqueKeysWithValues: zip(map.keys, map.values)) == reference)
        #expect(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }) == reference, "iterated, the same pairs")
        map.removeAll()
        #expect(map.isEmpty && map.keys.isEmpty && map[0] == nil)
    }

    /// `update` changes a value where it is stored: an array value grows in its own buffer, not
    /// in a copy (a copy on each insert made a reader set of thousands quadratic), below the
    /// limit and past it.
    @Test(arguments: [1, SmallMap<Int, [Int]>.limit + 1]) func updateChangesAValueInPlace(entries: Int) {
        var map = SmallMap<Int, [Int]>()
        for key in 0..<entries {
            var value: [Int] = []
            value.reserveCapacity(64)
            map.updateValue(value, forKey: key)
        }
        func address() -> UnsafeRawPointer? { map[0]!.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        let before = address()
        map.update(0, default: []) { $0.append(1) }
        map.updateIfPresent(0) { $0.append(2) }
        #expect(map[0] == [1, 2])
        #expect(address() == before, "changed where it is stored")
    }

    /// Room asked for past the limit makes the dictionary at once (a scan's batch of records).
    @Test func roomPastTheLimitIndexesAtOnce() {
        var map = SmallMap<Int, Int>()
        let limit = SmallMap<Int, Int>.limit
        map.updateValue(1, forKey: 1)
        map.reserveCapacity(limit * 4)
        for key in 2...(limit * 2) { map.updateValue(key, forKey: key) }
        #expect(map.count == limit * 2 && map[1] == 1 && map[limit * 2] == limit * 2)
    }
}
