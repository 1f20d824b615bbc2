import TestSupport
import Testing

@testable import RuleEngine

/// The interned strings of the evaluation store: each string held once with a count of its
/// users, its id stable while it is held, freed ids reused, nothing kept once the last user
/// releases it.
@Suite struct StringTableTests {
    /// 20,000 random retains and releases over 300 strings (the table past `searchedUpTo`, found
    /// through its dictionary) and over 20 (searched, never indexed), checked after each step
    /// against a plain count per string: same ids while held, same strings by id, the table no
    /// larger than the most strings held at once.
    @Test(arguments: [300, 20]) func randomRetainsAndReleasesMatchACountPerString(distinct: Int) {
        var table = StringTable()
        var held: [String: (id: StringTable.ID, users: Int)] = [:]
        var generator = SeededGenerator(seed: 11)
        var most = 0
        for step in 0..<20_000 {
            let name = "Assets.xcassets/Set-\(Int.random(in: 0..<distinct, using: &generator)).appiconset/icon.png"
            if Bool.random(using: &generator) || held[name] == nil {
                let id = table.retain(name)
                if let known = held[name] {
                    #expect(id == known.id, "step \(step): a held string keeps its id")
                    held[name] = (id, known.users + 1)
                } else {
                    #expect(!held.values.contains { $0.id == id }, "step \(step): a new string gets an id no held string has")
                    held[name] = (id, 1)
                }
            } else if let known = held[name] {
                table.release(known.id)
                held[name] = known.users == 1 ? nil : (known.id, known.users - 1)
            }
            most = max(most, held.count)
            #expect(table.count == held.count)
        }
        #expect(table.capacity <= most, "freed ids are reused")
        for (name, entry) in held {
            #expect(table[entry.id] == name && table.id(name) == entry.id)
        }
        for (_, entry) in held { for _ in 0..<entry.users { table.release(entry.id) } }
        #expect(table.count == 0 && held.keys.allSatisfy { table.id($0) == nil }, "nothing is kept after the last release")
    }

    /// A small table is searched: a freed slot (holding "") never answers for a held "" (the
    /// root's own path), and ids stay what they were when the table starts its dictionary.
    @Test func aSearchedTableKeepsItsIdsWhenItStartsItsDictionary() {
        var table = StringTable()
        let a = table.retain("a")
        table.release(a)
        #expect(table.id("") == nil && table.id("a") == nil && table.count == 0, "a freed slot answers for nothing")
        let empty = table.retain("")
        #expect(table.id("") == empty && table[empty] == "" && table.count == 1)
        var ids = [String: StringTable.ID]()
        for i in 0..<StringTable.searchedUpTo { ids["p\(i)"] = table.retain("p\(i)") }
        #expect(table.capacity == StringTable.searchedUpTo + 1, "past the limit: indexed now")
        for (name, id) in ids { #expect(table.id(name) == id && table[id] == name) }
        #expect(table.id("") == empty && table.retain("") == empty, "held twice now")
        table.release(empty)
        #expect(table.id("") == empty)
        table.release(empty)
        #expect(table.id("") == nil && table.count == StringTable.searchedUpTo)
    }

    /// A string new to the table is kept in storage of its own, not in the buffer of the string
    /// passed in (built on a scan's worker thread, that buffer pinned the worker's heap pages);
    /// a string seen again keeps its first copy.
    @Test func aNewStringIsKeptInAStorageOfItsOwn() async {
        let built = await Task.detached { "Assets.xcassets/AppIcon.appiconset/Icon-\(60)@3x.png" + String(repeating: "x", count: 40) }.value
        var table = StringTable()
        let id = table.retain(built)
        #expect(table[id] == built)
        #expect(Self.address(of: table[id]) != Self.address(of: built), "the table holds a copy")
        let again = table.retain(String(built))
        #expect(again == id && Self.address(of: table[id]) == Self.address(of: table[again]))
    }

    /// Where a string's bytes are (nil for one held inline): whether two strings share storage.
    static func address(of string: String) -> UnsafeRawPointer? {
        var string = string
        return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
}
