/// The entries of a Contents.json read straight from its bytes into `AssetImageEntry`s, in the
/// strict reader's subset (ContentsJSON.swift), for the usual shape: the top-level array's items
/// are objects, their known fields strings, their appearances objects with `appearance` and
/// `value` strings. Anything else answers nil, and the caller builds the value tree and checks
/// its shape, which says what is wrong. So whatever this reader answers is what the tree and the
/// shape check give (ContentsJSONTests holds that on the corpus and on mutations of it).
///
/// Why: building the value tree (an array of members per entry, a String per key) and looking
/// each of ten fields up in it was 8 % of a cold `check`'s instructions (callgrind, 1,000 sets);
/// this reader compares each key's bytes once and keeps only the fields.
extension StrictContentsJSON {
    /// The fields an entry keeps, in `AssetImageEntry`'s order; `appearances` is read apart.
    static let entryFields: [StaticString] = [
        "filename", "idiom", "size", "scale", "platform", "role", "subtype", "orientation", "extent", "minimum-system-version",
    ]

    /// The entries of the top-level `key` array and whether the key is there, or nil (outside the
    /// subset, or not the usual shape: the value tree decides).
    static func entries(_ data: [UInt8], key: String) -> (entries: [AssetImageEntry], hasKey: Bool)? {
        let name = Array(key.utf8)
        return data.withUnsafeBufferPointer { buffer in
            var reader = StrictContentsJSON(buffer, entriesKey: nil)
            reader.skipWhitespace()
            guard reader.peek == UInt8(ascii: "{"), let found = reader.topLevel(entriesKey: name) else { return nil }
            reader.skipWhitespace()
            return reader.pos == buffer.count ? found : nil
        }
    }

    /// The top-level object (depth 0, as `value(depth:)` counts): the entries key's array is read
    /// into entries, every other member is checked by `value(depth:)` and dropped.
    private mutating func topLevel(entriesKey: [UInt8]) -> (entries: [AssetImageEntry], hasKey: Bool)? {
        var entries: [AssetImageEntry] = []
        var hasKey = false
        let complete = members { reader, key in
            guard reader.equal(key, entriesKey) else { return reader.value(depth: 1) != nil }
            guard reader.peek == UInt8(ascii: "["), let list = reader.entryList(depth: 1) else { return false }
            (entries, hasKey) = (list, true)
            return true
        }
        return complete ? (entries, hasKey) : nil
    }

    /// The array of entries: each item an object, with the line where it starts.
    private mutating func entryList(depth: Int) -> [AssetImageEntry]? {
        // Grown as entries come, not reserved, and copied to its exact size when grown past it:
        // the daemon keeps 512 parsed files, and an icon set's ten entries sat in room for
        // sixteen (1.4 MB of the 100k-file heap).
        var list: [AssetImageEntry] = []
        let complete = items { reader in
            guard depth + 1 < Self.maximumDepth, reader.peek == UInt8(ascii: "{") else { return false }
            // Read in place: an entry returned and appended was copied twice (its ten strings
            // retained and released each time).
            list.append(AssetImageEntry(line: reader.line))
            return reader.entry(depth: depth + 1, into: &list[list.count - 1])
        }
        guard complete else { return nil }
        guard list.capacity > list.count else { return list }
        return [AssetImageEntry](unsafeUninitializedCapacity: list.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: list)
        }
    }

    /// One entry: its known fields as strings, its appearances, every other member checked.
    private mutating func entry(depth: Int, into entry: inout AssetImageEntry) -> Bool {
        members { reader, key in
            if let i = Self.entryFields.firstIndex(where: { reader.equal(key, $0) }) {
                guard reader.peek == UInt8(ascii: "\""), let s = reader.string() else { return false }
                Self.set(field: i, s, in: &entry)
                return true
            }
            guard reader.equal(key, "appearances") else { return reader.value(depth: depth + 1) != nil }
            guard depth + 1 < Self.maximumDepth, reader.peek == UInt8(ascii: "["), let list = reader.appearances(depth: depth + 1)
            else { return false }
            entry.appearances = list
            return true
        }
    }

    private static func set(field: Int, _ value: String, in entry: inout AssetImageEntry) {
        switch field {
        case 0: entry.filename = value
        case 1: entry.idiom = value
        case 2: entry.size = value
        case 3: entry.scale = value
        case 4: entry.platform = value
        case 5: entry.role = value
        case 6: entry.subtype = value
        case 7: entry.orientation = value
        case 8: entry.extent = value
        default: entry.minimumSystemVersion = value
        }
    }

    /// An entry's appearances: objects with `appearance` and `value` strings, as "appearance:value".
    private mutating func appearances(depth: Int) -> [String]? {
        var list: [String] = []
        let complete = items { reader in
            guard depth + 1 < Self.maximumDepth, reader.peek == UInt8(ascii: "{") else { return false }
            var appearance: String?
            var value: String?
            let complete = reader.members { reader, key in
                let isAppearance = reader.equal(key, "appearance")
                guard isAppearance || reader.equal(key, "value") else { return reader.value(depth: depth + 2) != nil }
                // Not a string: the shape check's "without appearance/value" (a null, a number).
                guard reader.peek == UInt8(ascii: "\""), let s = reader.string() else { return false }
                if isAppearance { appearance = s } else { value = s }
                return true
            }
            guard complete, let appearance, let value else { return false }
            list.append("\(appearance):\(value)")
            return true
        }
        return complete ? list : nil
    }

    /// Reads the array at `pos` item by item: `item` reads each (the reader is at it) and says
    /// whether it was taken. False when the syntax is wrong or `item` refused one.
    private mutating func items(_ item: (inout StrictContentsJSON) -> Bool) -> Bool {
        pos += 1  // [
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            pos += 1
            return true
        }
        while true {
            skipWhitespace()
            guard item(&self) else { return false }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): pos += 1
            case UInt8(ascii: "]"):
                pos += 1
                return true
            default: return false
            }
        }
    }

    /// Reads the object at `pos` member by member: `member` reads each value (the reader is at
    /// it) and says whether it was taken. False when a key repeats, the object has more members
    /// than the subset takes, the syntax is wrong or `member` refused one. Keys are compared as
    /// byte ranges: no String is made for them.
    private mutating func members(_ member: (inout StrictContentsJSON, Range<Int>) -> Bool) -> Bool {
        // The keys seen so far, on the stack: an array per object, grown as keys came, was a
        // sixth of this reader's instructions.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: Self.maximumMembers) { keys in
            members(member, keys: keys)
        }
    }

    private mutating func members(
        _ member: (inout StrictContentsJSON, Range<Int>) -> Bool, keys: UnsafeMutableBufferPointer<Range<Int>>
    ) -> Bool {
        pos += 1  // {
        var count = 0
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            pos += 1
            return true
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\""), let key = stringRange() else { return false }
            guard count < Self.maximumMembers, !keys[..<count].contains(where: { equal($0, key) }) else { return false }
            keys.baseAddress!.advanced(by: count).initialize(to: key)
            count += 1
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return false }
            pos += 1
            skipWhitespace()
            guard member(&self, key) else { return false }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): pos += 1
            case UInt8(ascii: "}"):
                pos += 1
                return true
            default: return false
            }
        }
    }

    private func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && bytes[a].elementsEqual(bytes[b])
    }

    private func equal(_ a: Range<Int>, _ b: [UInt8]) -> Bool {
        a.count == b.count && bytes[a].elementsEqual(b)
    }

    private func equal(_ a: Range<Int>, _ b: StaticString) -> Bool {
        guard a.count == b.utf8CodeUnitCount else { return false }
        let p = b.utf8Start
        for i in 0..<a.count where bytes[a.lowerBound + i] != p[i] { return false }
        return true
    }
}
