/// Judges a binary plist from its object table alone, before Foundation parses it: counts the
/// values it expands to, and refuses object kinds Info.plists and projects never hold. Objects that share references (a 393-byte file of 7 nested arrays of 10 references
/// each) are one object each in the file but count every time they are referenced; counting with
/// one memo entry per object costs what the file holds, never what it expands to.
enum BinaryPlistShape {
    enum Verdict: Equatable {
        case readable
        /// Expands to more values than the budget (or its objects refer to themselves).
        case tooBig
        /// Holds an object no Info.plist or project has, which Foundation cannot be trusted with
        /// (an NSSet of dictionaries crashes its bridging to Swift), or its structure is broken.
        case unsupported(String)
    }

    static let broken = Verdict.unsupported("a broken binary structure (offsets or references out of range)")

    /// Judges a binary plist before Foundation parses it (anything else is `readable` here). Only
    /// a structure read completely is handed on: Foundation never sees a part this walk did not.
    static func judge(_ bytes: [UInt8], budget: Int) -> Verdict {
        guard bytes.starts(with: Array("bplist".utf8)) else { return .readable }
        guard let table = ObjectTable(bytes) else { return broken }
        guard table.count <= budget else { return .tooBig }
        // Iterative post-order walk; memo: 0 unknown, UInt32.max in progress, else 1 + expanded count.
        var memo = [UInt32](repeating: 0, count: table.count)
        var stack: [(object: Int, children: [Int], next: Int, total: Int)] = []
        func push(_ object: Int) -> Verdict? {
            switch table.object(object) {
            case nil: return broken
            case .unsupported(let what)?: return .unsupported(what)
            case .children(let children)?:
                guard stack.count < PlistValue.maximumDepth else { return .tooBig }
                memo[object] = .max
                stack.append((object, children, 0, 1))
                return nil
            }
        }
        if let verdict = push(table.top) { return verdict }
        while var frame = stack.popLast() {
            if frame.next < frame.children.count {
                let child = frame.children[frame.next]
                frame.next += 1
                guard child < table.count else { return broken }
                switch memo[child] {
                case .max: return .tooBig  // a cycle
                case 0:
                    stack.append(frame)
                    if let verdict = push(child) { return verdict }
                    continue
                default: frame.total += Int(memo[child]) - 1
                }
                guard frame.total <= budget else { return .tooBig }
                stack.append(frame)
            } else {
                memo[frame.object] = UInt32(frame.total) + 1
                guard var parent = stack.popLast() else { return frame.total <= budget ? .readable : .tooBig }
                parent.total += frame.total
                guard parent.total <= budget else { return .tooBig }
                stack.append(parent)
            }
        }
        return .readable
    }

    /// The trailer, offset table and containers of a `bplist00` file.
    struct ObjectTable: Equatable {
        let bytes: [UInt8]
        let offsetSize: Int
        let refSize: Int
        let count: Int
        let top: Int
        let tableOffset: Int

        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 40, bytes.starts(with: Array("bplist0".utf8)) else { return nil }
            let t = bytes.count - 32
            offsetSize = Int(bytes[t + 6])
            refSize = Int(bytes[t + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(refSize),
                let count = Self.integer(bytes, t + 8, 8), let top = Self.integer(bytes, t + 16, 8),
                let tableOffset = Self.integer(bytes, t + 24, 8),
                top < count, tableOffset < t, count <= (t - tableOffset) / offsetSize
            else { return nil }
            self.bytes = bytes
            self.count = count
            self.top = top
            self.tableOffset = tableOffset
        }

        /// Big-endian unsigned integer of `size` bytes at `at`, nil when out of range or above Int.max.
        static func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int? {
            guard at >= 0, size <= 8, at <= bytes.count - size else { return nil }
            var value: UInt64 = 0
            for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
            return Int(exactly: value)
        }

        enum Object {
            /// The objects it refers to (keys and values of a dictionary); [] for a scalar.
            case children([Int])
            case unsupported(String)
        }

        /// Nil when the object cannot be read.
        func object(_ object: Int) -> Object? {
            guard let offset = Self.integer(bytes, tableOffset + object * offsetSize, offsetSize), offset < tableOffset else {
                return nil
            }
            let marker = bytes[offset]
            let kind = marker >> 4
            if kind == 0xC { return .unsupported("a set") }
            if kind == 0x8 { return .unsupported("a keyed-archiver UID") }
            guard kind == 0xA || kind == 0xD else { return .children([]) }
            var length = Int(marker & 0x0F)
            var start = offset + 1
            if length == 0x0F {
                // The count follows as an integer object: marker 0x1n, then 2^n bytes.
                guard start < bytes.count, bytes[start] >> 4 == 0x1 else { return nil }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard size <= 8, let n = Self.integer(bytes, start + 1, size) else { return nil }
                length = n
                start += 1 + size
            }
            let refs = kind == 0xD ? length * 2 : length
            guard length <= bytes.count, refs <= (tableOffset - start) / refSize else { return nil }
            var children: [Int] = []
            children.reserveCapacity(refs)
            for i in 0..<refs {
                guard let child = Self.integer(bytes, start + i * refSize, refSize) else { return nil }
                children.append(child)
            }
            return .children(children)
        }
    }
}
