import Foundation
import Yams

/// Bounded work for YAML from a checked tree (`.reswatch.yaml`, a project's rule modules) and
/// for configuration files: aliases used as mapping keys are refused before Yams composes the
/// text (its duplicate-key check grows by the product of the aliases: 360 bytes took 13.6 s), and
/// a composed document may expand (through value aliases) to at most `nodeBudget` nodes.
public enum YAMLLimits {
    public static let nodeBudget = 1_000_000

    /// Composes `text`, or says why it will not.
    /// `bounded: false` skips the count of the composed values, for text that is no input (the
    /// rule modules built into the binary, held to the budget by their tests): on a tree of Yams'
    /// enums it was a tenth of every start.
    public static func compose(_ text: String, bounded: Bool = true) -> Result<Node?, YAMLProblem> {
        if let line = aliasKeyLine(text) {
            return .failure(YAMLProblem(line: line, message: "an alias used as a mapping key (? *name / *name:) is not accepted"))
        }
        let root: Node?
        // Resolver.basic: Yams' default resolver tells a scalar's type by matching it against seven
        // NSRegularExpressions (ICU), compiled at first use and run for every key it hashes or looks
        // up: 40 % of loading the built-in modules. Nothing read here needs a resolved tag: every
        // reader takes a scalar's text and says what it expected (`bool(_:)` for true/false), and
        // keys are looked up by their text (`node["key"]`, which keeps the document's resolver),
        // never with a `Node(...)` built with the default one ("1" or "Yes" would not match).
        // UTF-8 named, not `.default`: that one reads the whole environment on every call (4 % of
        // a start) and, when YAMS_DEFAULT_ENCODING is set, prints a line to standard output per
        // document, in the middle of `check --format json`'s report or the language server's
        // messages.
        do { root = try Yams.compose(yaml: text, .basic, .default, .utf8) } catch { return .failure(.from(error)) }
        if let root, bounded {
            var budget = nodeBudget
            guard within(root, &budget) else {
                return .failure(YAMLProblem(line: nil, message: "expands (through aliases) to more than \(nodeBudget) values: not read"))
            }
        }
        return .success(root)
    }

    /// The 1-based line of the first alias used as a key, in block (`? *a`, `*a:`) or flow (`{*a: 1}`) style.
    /// Lines end where the YAML parser's do: LF, CR, CRLF, NEL, LS and PS (a module written with
    /// CRLF or U+2028 line ends must not slip past). One pass over the bytes, no regex: this runs
    /// for every module at every start.
    static func aliasKeyLine(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard bytes.contains(UInt8(ascii: "*")) else { return nil }
            var line = 1
            var start = 0
            var i = 0
            while i <= bytes.count {
                let breakLength = i == bytes.count ? 1 : lineBreakLength(bytes, at: i)
                if breakLength == 0 {
                    i += 1
                    continue
                }
                if aliasKey(UnsafeBufferPointer(rebasing: bytes[start..<i])) { return line }
                line += 1
                i += breakLength
                start = i
            }
            return nil
        }
    }

    /// The length of the line break at `i` (0: none): LF, CR, CRLF, NEL (C2 85), LS/PS (E2 80 A8/A9).
    private static func lineBreakLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        switch b[i] {
        case 0x0A: return 1
        case 0x0D: return i + 1 < b.count && b[i + 1] == 0x0A ? 2 : 1
        case 0xC2: return i + 1 < b.count && b[i + 1] == 0x85 ? 2 : 0
        case 0xE2: return i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9) ? 3 : 0
        default: return 0
        }
    }

    /// One line: `? *a` or `*a :` after any indentation and sequence dashes, or `*a:` after `{` or
    /// `,` anywhere (flow style, `?` allowed).
    private static func aliasKey(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.contains(UInt8(ascii: "*")) else { return false }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0B || c == 0x0C || c == 0x0D }
        func skipSpaces(_ j: inout Int) { while j < b.count && isSpace(b[j]) { j += 1 } }
        func endsName(_ c: UInt8) -> Bool {
            isSpace(c) || c == UInt8(ascii: ":") || c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}")
        }
        // `*name` then optional spaces then `:` (a name ends at a space, `:`, `,`, `]` or `}`).
        func aliasThenColon(_ at: Int) -> Bool {
            guard at < b.count, b[at] == UInt8(ascii: "*") else { return false }
            var j = at + 1
            while j < b.count, !endsName(b[j]) { j += 1 }
            guard j > at + 1 else { return false }
            skipSpaces(&j)
            return j < b.count && b[j] == UInt8(ascii: ":")
        }
        // Block style: indentation, then any number of "- ", then `? *` or `*name :`.
        var j = 0
        skipSpaces(&j)
        while j + 1 < b.count, b[j] == UInt8(ascii: "-"), isSpace(b[j + 1]) {
            j += 1
            skipSpaces(&j)
        }
        if j < b.count, b[j] == UInt8(ascii: "?") {
            var k = j + 1
            skipSpaces(&k)
            if k < b.count, b[k] == UInt8(ascii: "*") { return true }
        }
        if aliasThenColon(j) { return true }
        // Flow style: `{` or `,`, spaces, any `?`, spaces, `*name :`.
        for k in 0..<b.count where b[k] == UInt8(ascii: "{") || b[k] == UInt8(ascii: ",") {
            var m = k + 1
            skipSpaces(&m)
            while m < b.count, b[m] == UInt8(ascii: "?") { m += 1 }
            skipSpaces(&m)
            if aliasThenColon(m) { return true }
        }
        return false
    }

    /// A YAML 1.1 boolean as Yams' default resolver reads one (true/false, yes/no, on/off, in any
    /// case), from the scalar's text: under `.basic` every scalar is a string, and Yams' own
    /// `Node.bool` refuses strings once their tag is resolved.
    public static func bool(_ node: Node?) -> Bool? {
        guard case .scalar(let scalar)? = node else { return nil }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    static func within(_ node: Node, _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar, .alias: return true
        case .sequence(let s): return s.allSatisfy { within($0, &budget) }
        case .mapping(let m):
            for (k, v) in m { guard within(k, &budget), within(v, &budget) else { return false } }
            return true
        }
    }
}
