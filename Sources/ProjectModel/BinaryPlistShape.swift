/// Counts the values a binary plist expands to, from its object table alone, before Foundation
/// parses it. Objects that share references (a 393-byte file of 7 nested arrays of 10 references
/// each) are one object each in the file but count every time they are referenced; counting with
/// one memo entry per object costs what the file holds, never what it expands to.
enum BinaryPlistShape {
    /// False when the values the file expands to exceed `budget` (or its object graph has a
    /// cycle). A file whose structure cannot be read is left to Foundation, which says why.
    static func withinBudget(_ bytes: [UInt8], budget: Int) -> Bool {
        guard let table = ObjectTable(bytes) else { return true }
        guard table.count <= budget else { return false }
        // Iterative post-order walk; memo: 0 unknown, UInt32.max in progress, else 1 + expanded count.
        var memo = [UInt32](repeating: 0, count: table.count)
        var stack: [(object: Int, children: [Int], next: Int, total: Int)] = []
        func push(_ object: Int) -> Bool {
            guard let children = table.children(of: object) else { return false }
            memo[object] = .max
            stack.append((object, children, 0, 1))
            return true
        }
        guard push(table.top) else { return true }
        while var frame = stack.popLast() {
            if frame.next < frame.children.count {
                let child = frame.children[frame.next]
                frame.next += 1
                guard child < table.count else { return true }  // a broken reference: Foundation rejects it
                switch memo[child] {
                case .max: return false  // a cycle
                case 0:
                    stack.append(frame)
                    guard push(child) else { return true }
                    continue
                default: frame.total += Int(memo[child]) - 1
                }
                guard frame.total <= budget else { return false }
                stack.append(frame)
            } else {
                memo[frame.object] = UInt32(frame.total) + 1
                guard var parent = stack.popLast() else { return frame.total <= budget }
                parent.total += frame.total
                guard parent.total <= budget else { return false }
                stack.append(parent)
            }
        }
        return true
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

        /// The objects a container refers to (keys and values of a dictionary); [] for a scalar;
        /// nil when the object cannot be read.
        func children(of object: Int) -> [Int]? {
            guard let offset = Self.integer(bytes, tableOffset + object * offsetSize, offsetSize), offset < tableOffset else {
                return nil
            }
            let marker = bytes[offset]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { return [] }
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
            return (0..<refs).compactMap { Self.integer(bytes, start + $0 * refSize, refSize) }
        }
    }
}
