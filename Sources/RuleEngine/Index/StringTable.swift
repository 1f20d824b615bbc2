/// Strings interned to 32-bit ids, each held once and counted by its users: when the last user
/// releases an id, its string is forgotten and the id is reused. The evaluation store keeps its
/// paths and rule names here, so a record or a reverse-index entry is a few integers, not strings
/// (measured in c561342, "The compact index" of docs/performance.md then).
struct StringTable: Sendable {
    typealias ID = UInt32

    private var ids: [String: ID] = [:]
    /// The string of each id; a freed slot holds "" until reused. The dictionary's key and this
    /// element are one value, so the string's bytes are stored once.
    private var strings: [String] = []
    private var users: [UInt32] = []
    private var freeIDs: [ID] = []

    /// How many distinct strings are held.
    var count: Int { ids.count }
    /// How many ids have been handed out (held or free for reuse).
    var capacity: Int { strings.count }

    /// The id of a string held, without taking it.
    func id(_ string: String) -> ID? { ids[string] }

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
        if let id = ids[string] {
            users[Int(id)] += 1
            return id
        }
        let owned = copying ? Self.ownCopy(string) : string
        let id = freeIDs.popLast() ?? ID(strings.count)
        ids[owned] = id
        if Int(id) < strings.count {
            strings[Int(id)] = owned
            users[Int(id)] = 1
        } else {
            strings.append(owned)
            users.append(1)
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
        ids[strings[i]] = nil
        strings[i] = ""
        freeIDs.append(id)
    }

    mutating func removeAll() { self = StringTable() }
}
