import RuleKit
import TestSupport
import Testing
import Yams

/// ModuleNode's encoded form (what the binary holds for its built-in modules) gives back the
/// very node, whatever its text, and decoding hostile text never traps.
@Suite struct ModuleNodeTests {
    static let awkward = [
        "", " ", "a ", " a", "\\", "\\x41", "\\\\x", "line\nbreak", "\r\n", "tab\there", "nul\u{0}byte", "é", "e\u{301}",
        "\u{2028}", "🙂", "#\"\"\"#", "\"\"\"##", "\\#(x)", "s1 2 3", "q0 0 99", "\u{7F}",
    ]

    static func randomNode(_ g: inout SeededGenerator, depth: Int = 0) -> ModuleNode {
        let mark = ModuleNode.Mark(line: Int.random(in: 0...5000, using: &g), column: Int.random(in: 0...200, using: &g))
        let choice = depth > 4 ? 0 : Int.random(in: 0...9, using: &g)
        switch choice {
        case 0...4:
            var text = ""
            for _ in 0..<Int.random(in: 0...3, using: &g) { text += awkward.randomElement(using: &g)! }
            return .scalar(text, mark)
        case 5...6: return .sequence((0..<Int.random(in: 0...4, using: &g)).map { _ in randomNode(&g, depth: depth + 1) }, mark)
        case 7...8:
            return .mapping(
                (0..<Int.random(in: 0...4, using: &g)).map { _ in
                    ModuleNode.Pair(key: randomNode(&g, depth: depth + 1), value: randomNode(&g, depth: depth + 1))
                }, mark)
        default: return .other(mark)
        }
    }

    @Test func randomTreesComeBackFromTheirEncoding() {
        var g = SeededGenerator(seed: 63)
        for _ in 0..<2000 {
            let node = Self.randomNode(&g)
            let text = node.encoded
            #expect(ModuleNode(encoded: text) == node, "\(text)")
            #expect(!text.utf8.contains { $0 < 0x20 && $0 != UInt8(ascii: "\n") || $0 > 0x7E }, "not printable ASCII: \(text)")
            #expect(!text.contains(" \n"), "a line ends in white space: \(text)")
        }
    }

    /// Truncated, spliced or flipped text is refused or read as some other tree; it never traps
    /// and never reads past its end.
    @Test func hostileEncodingsAreRefusedWithoutTrapping() {
        var g = SeededGenerator(seed: 9063)
        for _ in 0..<3000 {
            var bytes = Array(Self.randomNode(&g).encoded.utf8)
            switch Int.random(in: 0...3, using: &g) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &g)))
            case 1 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &g)] = UInt8.random(in: 0...255, using: &g)
            case 2: bytes.insert(contentsOf: Array("q1 1 999999999\n".utf8), at: Int.random(in: 0...bytes.count, using: &g))
            default: bytes += Array("m0 0 1\n".utf8)
            }
            if let node = ModuleNode(encoded: String(decoding: bytes, as: UTF8.self)) {
                #expect(ModuleNode(encoded: node.encoded) == node)
            }
        }
        #expect(ModuleNode(encoded: String(repeating: "q1 1 1\n", count: 10_000) + "o1 1\n") == nil, "nesting is bounded")
        #expect(ModuleNode(encoded: "") == nil)
        #expect(ModuleNode(encoded: "s1 1 a\ns1 1 b\n") == nil, "one node, nothing after it")
    }

    /// A composed document keeps every value's text, line and column.
    @Test func aYamsDocumentKeepsItsMarks() throws {
        let yaml = "rules:\n  - kind: icon\n    sizes: [1, '2 ']\nx-a: &a {k: v}\ny: *a\n"
        let node = ModuleNode(try #require(try Yams.compose(yaml: yaml)))
        let entry = try #require(node["rules"]?.sequence?.first)
        #expect(entry["kind"]?.string == "icon" && entry["kind"]?.line == 2 && entry.column == 5)
        #expect(entry["sizes"]?.sequence?.map(\.string) == ["1", "2 "])
        #expect(node["y"]?["k"]?.string == "v", "an alias arrives expanded")
        #expect(ModuleNode(encoded: node.encoded) == node)
    }
}
