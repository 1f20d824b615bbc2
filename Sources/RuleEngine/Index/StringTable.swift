/// Strings interned to 32-bit ids, each held once and counted by its users: when the last user
/// releases an id, its string is forgotten and the id is reused. The evaluation store keeps its
/// paths and rule names here, so a record or a reverse-index entry is a few integers, not strings
/// (docs/performance.md, "The compact index").
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

    /// The id of `string`, held for one more user.
    mutating func retain(_ string: String) -> ID {
        // One hash of the string, found or inserted in the same probe: the id it gets if it is
        // new is the next free one, which no held string has (a full scan interns every path
        // once, and looking up then inserting hashed each twice).
        let next = freeIDs.last ?? ID(strings.count)
        let id = Self.take(&ids[string, default: next])
        guard id == next else {
            users[Int(id)] += 1
            return id
        }
        if freeIDs.popLast() != nil {
            strings[Int(id)] = string
            users[Int(id)] = 1
        } else {
            strings.append(string)
            users.append(1)
        }
        return id
    }

    /// Reads a dictionary value through its `default:` subscript's modify access, which inserts
    /// the default when the key is absent.
    private static func take(_ value: inout ID) -> ID { value }

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
