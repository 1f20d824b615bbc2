import Findings
import Foundation
import ReswatchProtocol
import Testing

/// Every line the daemon sends is written by `CompactJSON` where it can: it must be the very
/// bytes `JSONEncoder` writes (clients, golden docs and `jq` pipelines see no difference), and
/// give the line to `JSONEncoder` wherever it would write otherwise.
@Suite struct CompactJSONTests {
    /// Both encoders' lines for `value`; the compact one nil where it declined.
    func lines<T: Encodable>(_ value: T) -> (compact: String?, foundation: String) {
        let compact = CompactJSON.encode(value).map { String(decoding: $0, as: UTF8.self) + "\n" }
        return (compact, String(decoding: RPCEncoder.foundationLine(value), as: UTF8.self))
    }

    func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) {
        let (compact, foundation) = lines(value)
        #expect(compact == foundation, sourceLocation: sourceLocation)
        #expect(String(decoding: RPCEncoder.line(value), as: UTF8.self) == foundation, sourceLocation: sourceLocation)
    }

    /// Every C0 control, quote, backslash, slash, DEL, C1, line separators, a BOM, accents, an
    /// emoji, and the \xHH escape the daemon gives a file name that is not UTF-8.
    static let hostileText: String = {
        var s = ""
        for i in 0..<0x80 { s.unicodeScalars.append(Unicode.Scalar(i)!) }
        return s + "\u{85}\u{A0}\u{2028}\u{2029}\u{FEFF}é😀 Icon\\xff/..\\\"{}[]"
    }()

    static func diagnostic(_ n: Int, text: String) -> Diagnostic {
        Diagnostic(
            rule: "icon.size-mismatch", severity: n % 2 == 0 ? .error : .warning, code: n % 3 == 0 ? nil : "ITMS-90022",
            root: "/srv/\(text)", project: n % 2 == 0 ? "" : "App", path: "Assets.xcassets/AppIcon.appiconset/\(text).png",
            line: n % 4 == 0 ? nil : n, column: n % 5 == 0 ? nil : 3, message: "121×120 is not 120×120: \(text)",
            fix: n % 2 == 0 ? nil : "resize \(text)", related: n % 3 == 0 ? [] : ["Contents.json", text],
            relatedLocations: n % 2 == 0 ? [] : [RelatedLocation(path: "Contents.json", line: 7, column: nil, message: text)])
    }

    @Test func diagnosticsLinesAreJSONEncodersBytes() {
        let texts = ["", "plain", Self.hostileText]
        for (n, text) in texts.enumerated() {
            let ds = (0..<6).map { Self.diagnostic($0 + n, text: text) }
            let change = DiagnosticsChange(generation: n, added: ds, removed: [ds[0]])
            expectSame(RPCEncoder.Notification(method: "diagnostics/changed", params: change))
            expectSame(DiagnosticsSnapshot(generation: Int.max, diagnostics: ds))
        }
    }

    @Test func statusAndOtherResultsAreJSONEncodersBytes() {
        let roots = [
            RootStatus(
                path: "/srv/a", state: .ready, files: 100_003, projects: 2, errors: 1, warnings: 0, infos: 4, lastChange: nil,
                recrawls: 0, reason: nil),
            RootStatus(
                path: Self.hostileText, state: .degraded, files: 0, projects: 0, errors: 0, warnings: 0, infos: 0,
                lastChange: "2026-11-28T02:00:00Z", recrawls: 3, reason: "inotify watch limit", judged: 7),
        ]
        for uptime in [0, 1, 2.5, 1234.000_001, 1e-7, 3e21, 0.1 + 0.2] {
            var status = StatusResult(
                roots: roots, generation: 42, uptimeSeconds: uptime,
                ruleErrors: [ModuleError(file: "rules/x.yaml", line: 3, message: "bad \"kind\"")], watches: 9274,
                settleMilliseconds: 20, socket: "/run/reswatch/reswatch.sock")
            status.startedBy = "systemd"
            expectSame(RPCEncoder.Notification(method: "status/changed", params: status))
        }
        expectSame(InitializeResult(version: "0.2.0", methods: ["status", "sync"]))
        expectSame(WatchListResult(roots: ["/a", "/b/c"]))
        expectSame(GenerationResult(generation: -1))
        expectSame(MetricsResult(text: "# HELP x\nx{root=\"/a\"} 1\n"))
        expectSame(EmptyResult())
        expectSame(
            FixResult(
                root: "/r", repairs: [.init(rule: "r", path: "p", title: "t", changes: [.init(kind: "write", path: "p", to: nil)])],
                left: [.init(rule: "r", path: "q", line: nil, reason: "no master")], applied: false, journal: nil, generation: 3))
    }

    @Test func responsesErrorsAndFreeFormValuesAreJSONEncodersBytes() {
        let ids: [JSONValue] = [.integer(1), .integer(Int64.max), .integer(Int64.min), .string("a/b"), .null, .number(2.5), .number(1e300)]
        for id in ids {
            expectSame(RPCEncoder.Response(id: id, result: GenerationResult(generation: 1)))
            let error = RPCError(code: -32601, message: "Method not found: x", data: .object(["methods": .array([.string("status")])]))
            expectSame(RPCEncoder.ErrorResponse(id: id, error: error))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 { expectSame(Self.randomValue(depth: 0, using: &generator)) }
    }

    static func randomValue(depth: Int, using g: inout SystemRandomNumberGenerator) -> JSONValue {
        let pick = Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &g)
        let scalars = Array(hostileText.unicodeScalars)
        func text() -> String {
            var s = ""
            for _ in 0..<Int.random(in: 0..<12, using: &g) { s.unicodeScalars.append(scalars.randomElement(using: &g)!) }
            return s
        }
        switch pick {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .integer(Int64.random(in: Int64.min...Int64.max, using: &g))
        case 3: return .number([Double.random(in: -1e6...1e6, using: &g), 1e-9, 123.0, 1e22, -0.0].randomElement(using: &g)!)
        case 4: return .string(text())
        case 5: return .array((0..<Int.random(in: 0..<5, using: &g)).map { _ in randomValue(depth: depth + 1, using: &g) })
        default:
            var o: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0..<6, using: &g) { o[text()] = randomValue(depth: depth + 1, using: &g) }
            return .object(o)
        }
    }

    /// Keys in an order that is neither their declaration's nor a case-blind one.
    struct Keys: Encodable {
        enum CodingKeys: String, CodingKey {
            case b, a, capitalB = "B", é, underscoreZ = "_z", a1, a10, a2
        }
        let b = 1, a = 2, capitalB = 3, é = 4, underscoreZ = 5, a1 = 6, a10 = 7, a2 = 8
    }

    struct Numbers: Encodable {
        let doubles: [Double] = [0, -0.0, 1, 1.5, 3, 1e20, 1e21, 1e-5, 0.1, 123_456_789.125, 1e300, 2.5e-300, 0.1 + 0.2]
        let floats: [Float] = [1.5, 0.1, 3, 1e-10]
        let ints: [Int64] = [.min, -1, 0, 9, 10, .max]
        let small: [Int8] = [.min, .max]
        let unsigned: [UInt64] = [0, .max]
        let keyedByInt: [Int: String] = [1: "x", 2: "y", 10: "z"]
        let optional: String? = nil
    }

    @Test func keysSortAndNumbersPrintAsJSONEncoderDoes() {
        expectSame(Keys())
        expectSame(Numbers())
        #expect(lines(Keys()).compact == "{\"B\":3,\"_z\":5,\"a\":2,\"a1\":6,\"a10\":7,\"a2\":8,\"b\":1,\"é\":4}\n")
    }

    struct Special: Encodable {
        var date: Date? = nil
        var data: Data? = nil
        var url: URL? = nil
        var decimal: Decimal? = nil
        var double = 1.0
    }

    struct TwiceKeyed: Encodable {
        enum K: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode(1, forKey: .a)
            try c.encode(2, forKey: .a)
        }
    }

    /// What JSONEncoder writes its own way, or refuses, is left to it: the line is still its bytes.
    @Test func whatItDoesNotWriteGoesToJSONEncoder() {
        let declined: [any Encodable] = [
            Special(date: Date(timeIntervalSince1970: 1)), Special(data: Data([1, 2])), Special(url: URL(string: "file:///a")!),
            Special(decimal: Decimal(string: "1.25")!), Special(double: .nan), Special(double: .infinity), TwiceKeyed(),
        ]
        for value in declined {
            #expect(CompactJSON.encode(value) == nil)
            #expect(RPCEncoder.line(value) == RPCEncoder.foundationLine(value))
        }
        expectSame(Special())  // nil optionals are absent, not special
    }
}
