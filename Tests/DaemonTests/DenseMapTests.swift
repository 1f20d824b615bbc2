import TestSupport
import Testing

@testable import Daemon

/// The daemon's table of roots answers as a `Dictionary` would, and changes a value where it is.
@Suite struct DenseMapTests {
    /// 20,000 random sets, changes through the subscript, removals (by nil and by
    /// `removeValue`) and insertions over 300 keys, checked after each step against a
    /// `Dictionary` doing the same: every key's value, the count, and the pairs iterated.
    @Test func randomChangesMatchADictionary() {
        var map = DenseMap<Int, Int>()
        var reference: [Int: Int] = [:]
        var generator = SeededGenerator(seed: 11)
        for step in 0..<20_000 {
            let key = Int.random(in: 0..<300, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0, 1:
                map[key] = step
                reference[key] = step
            case 2:
                map[key]? += 1
                reference[key]? += 1
            case 3:
                #expect(map.removeValue(forKey: key) == reference.removeValue(forKey: key))
            default:
                map[key] = nil
                reference[key] = nil
            }
            #expect(map.count == reference.count && map[key] == reference[key], "step \(step)")
            if step % 1_000 == 0 {
                #expect(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }) == reference, "step \(step)")
                #expect(Dictionary(uniqueKeysWithValues: zip(map.keys, map.values)) == reference, "step \(step)")
            }
        }
        for key in reference.keys { map[key] = nil }
        #expect(map.isEmpty && map.keys.isEmpty && map[0] == nil)
    }

    /// A value changed through the subscript is changed where it is stored: an array in it grows
    /// in its own buffer, not in a copy (a root's findings table would be copied on each delta).
    @Test func aValueChangesInPlace() {
        var map = DenseMap<String, [Int]>()
        for key in ["/a", "/b", "/c"] {
            var value: [Int] = []
            value.reserveCapacity(64)
            map[key] = value
        }
        func address() -> UnsafeRawPointer? { map["/b"]!.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        let before = address()
        map["/b"]?.append(1)
        map["/b"]?.append(2)
        #expect(map["/b"] == [1, 2])
        #expect(address() == before, "changed where it is stored")
        map["/a"] = nil
        #expect(map["/b"] == [1, 2] && map["/c"] == [] && map.count == 2, "the others are intact after a removal")
    }

    /// A change that sets the value to nil through optional chaining's owner removes it; one
    /// through `?` on a missing key adds nothing.
    @Test func aMissingKeyStaysMissing() {
        var map = DenseMap<String, Int>()
        map["/x"]? += 1
        #expect(map.isEmpty && map["/x"] == nil)
        map["/x"] = 1
        map["/x"] = nil
        #expect(map.isEmpty)
    }
}
