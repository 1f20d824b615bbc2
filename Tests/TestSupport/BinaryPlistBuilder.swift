/// Hand-made binary plists (bplist00) for tests of hostile shapes Foundation will not write.
public enum BinaryPlistBuilder {
    /// A dictionary `{UIKey: …}` whose value is `levels` nested arrays, each holding 10
    /// references to the next level: 10^levels values from a file of 13 bytes per level.
    public static func sharedReferenceBomb(levels: Int) -> [UInt8] {
        var table: [[UInt8]] = [[0xD1, 1, 2], [0x55] + Array("UIKey".utf8)]
        for level in 0..<levels { table.append([0xAA] + Array(repeating: UInt8(3 + level), count: 10)) }
        table.append([0x51, UInt8(ascii: "x")])
        return assemble(table)
    }

    /// `{UIKey: [[…]]}` where the array holds itself.
    public static func cycle() -> [UInt8] { assemble([[0xD1, 1, 2], [0x55] + Array("UIKey".utf8), [0xA2, 2, 1]]) }

    /// `{UIKey: NSSet{ {} }}`: a set (which plists of apps never hold) of a dictionary; bridging
    /// it to Swift crashes Foundation.
    public static func setOfDictionaries() -> [UInt8] {
        assemble([[0xD1, 1, 2], [0x55] + Array("UIKey".utf8), [0xC1, 3], [0xD0]])
    }

    /// Header, objects, offset table (2-byte offsets, 1-byte references) and trailer.
    static func assemble(_ table: [[UInt8]]) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in table {
            offsets.append(out.count)
            out += object
        }
        let offsetTable = out.count
        for o in offsets { out += [UInt8(o >> 8), UInt8(o & 0xFF)] }
        out += [0, 0, 0, 0, 0, 0, 2, 1]
        for value in [table.count, 0, offsetTable] { out += (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        return out
    }
}
