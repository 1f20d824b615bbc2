/// Strings interned to 32-bit ids, each held once and counted by its users: when the last user
/// releases an id, its string is forgotten and the id is reused. The evaluation store keeps its
/// paths and rule names here, so a record or a reverse-index entry is a few integers, not strings
/// (measured in c561342, "The compact index" of docs/performance.md then).
///
/// A table that has handed out at most `searchedUpTo` ids keeps no dictionary: a string is
/// found by going through them (at most 32 comparisons, most of which stop at the first bytes).
/// Each of the daemon's roots has a table of its own, and one of a root of 100 files held 29
/// strings in a dictionary of 64 buckets: 1.4 kB of its heap, for 1,000 such roots 1.4 MB.
struct StringTable: Sendable {
    typealias ID = UInt32

    /// Past this many ids handed out, strings are found through `ids`.
    static let searchedUpTo = 32

    /// Each held string's id, once more than `searchedUpTo` ids were handed out (then kept
    /// until `removeAll`); empty before.
    private var ids: [String: ID] = [:]
    private var indexed = false
    /// The string of each id; a freed slot holds "" until reused. The dictionary's key and this
    /// element are one value, so the string's bytes are stored once.
    private var strings: [String] = []
    private var users: [UInt32] = []
    private var freeIDs: [ID] = []

    /// How many distinct strings are held.
    private(set) var count = 0
    /// How many ids have been handed out (held or free for reuse).
    var capacity: Int { strings.count }

    /// The id of a string held, without taking it.
    func id(_ string: String) -> ID? {
        if indexed { return ids[string] }
        // A freed slot holds "" and no user: it never answers for a held "".
        for i in strings.indices where users[i] > 0 && strings[i] == string { return ID(i) }
        return nil
    }

    subscript(id: ID) -> String { strings[Int(id)] }

    /// The id of `string`, held for one more user. A string new to the table is stored as a
    /// copy made here: the one passed in was built on whichever thread evaluated a rule, and
    /// kept, it pinned that thread's heap pages for the daemon's life. The scan's workers
    /// left 0.75 MB of paths spread over 4.6 MB of resident pages at 100k files; with copies
    /// their heap is released after the scan (anonymous memory 30.3 -> 28.1 MB). The price is
    /// a second hash and a copy for each string the first time it is seen.
    ///
    /// `copying: false` keeps the string passed in: for one the caller holds for as long as the
    /// table may (a rule's name, `LoadedRule.source`, held by the rule set), which every root's
    /// table then shares instead of holding a copy of each name of its own.
    mutating func retain(_ string: String, copying: Bool = true) -> ID {
        if let id = id(string) {
            users[Int(id)] += 1
            return id
        }
        let owned = copying ? Self.ownCopy(string) : string
        let id = freeIDs.popLast() ?? ID(strings.count)
        count += 1
        if Int(id) < strings.count {
            strings[Int(id)] = owned
            users[Int(id)] = 1
        } else {
            strings.append(owned)
            users.append(1)
        }
        if indexed {
            ids[owned] = id
        } else if strings.count > Self.searchedUpTo {
            indexed = true
            ids.reserveCapacity(count)
            for i in strings.indices where users[i] > 0 { ids[strings[i]] = ID(i) }
        }
        return id
    }

    /// A string with storage of its own (one of 15 bytes or fewer is held inline anyway).
    static func ownCopy(_ string: String) -> String {
        var string = string
        return string.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { out in
                _ = out.initialize(fromContentsOf: bytes)
                return bytes.count
            }
        }
    }

    /// One user fewer; the last one frees the string and its id.
    mutating func release(_ id: ID) {
        let i = Int(id)
        precondition(users[i] > 0, "StringTable: id \(id) released more often than retained")
        users[i] -= 1
        guard users[i] == 0 else { return }
        count -= 1
        if indexed { ids[strings[i]] = nil }
        strings[i] = ""
        freeIDs.append(id)
    }

    mutating func removeAll() { self = StringTable() }
}
