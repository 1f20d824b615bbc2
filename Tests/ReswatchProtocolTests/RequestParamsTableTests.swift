import Foundation
import ReswatchProtocol
import TestSupport
import Testing

/// A request's parameter keys are declared once, in its params type's `CodingKeys`: what a client
/// encodes, what the server accepts (`keys`) and reads, and docs/protocol.md's table agree.
@Suite struct RequestParamsTableTests {
    /// Every params type with every field set.
    static let samples: [any RequestParams] = [
        NoParams(), DiagnosticsParams(root: "/r", path: "A", minimumSeverity: .warning), SeverityParams(minimumSeverity: .error),
        SyncParams(timeoutMilliseconds: 250), RootParams(root: "/r"), PathParams(path: "/r/A"),
        FixParams(path: "/r/A", apply: true, only: ["icon.marketing-alpha"], background: "#ffffff", line: 3, singleSize: true),
    ]

    static func json(_ value: any Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    func readBack<P: RequestParams>(_ sample: P) throws -> (keys: Set<String>, written: JSONValue, reread: JSONValue) {
        let written = try Self.json(sample)
        let read = try ParamReader.read(P.self, from: written)
        return (P.keys, written, try Self.json(read))
    }

    @Test func whatIsWrittenIsWhatIsAcceptedAndReadBack() throws {
        for sample in Self.samples {
            let (keys, written, reread) = try readBack(sample)
            guard case .object(let object) = written else {
                Issue.record("\(type(of: sample)) is not written as an object")
                continue
            }
            #expect(Set(object.keys) == keys, "\(type(of: sample)): written \(object.keys.sorted()), accepted \(keys.sorted())")
            #expect(reread == written, "\(type(of: sample)): a key written is not read back")
        }
    }

    /// The methods table of docs/protocol.md: method → the parameter names its row lists.
    static func documented() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: Repo.root + "/docs/protocol.md", encoding: .utf8)
        var out: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, let method = cells[1].firstMatch(of: /^`([a-z\/]+)`$/)?.1 else { continue }
            // The names, not what the parentheses say about them.
            let names = cells[2].replacing(/\([^()]*\)/, with: "").matches(of: /`([a-z_]+)\??`/).map { String($0.1) }
            out[String(method)] = Set(names)
        }
        return out
    }

    @Test func theProtocolDocListsEachMethodsParameters() throws {
        let documented = try Self.documented()
        for request in ReswatchRequests.all {
            let keys = request.paramKeys
            #expect(
                documented[request.method] == keys,
                "\(request.method): docs/protocol.md lists \(documented[request.method]?.sorted() ?? []), the code takes \(keys.sorted())")
        }
    }
}

extension ReswatchRequest {
    static var paramKeys: Set<String> { Params.keys }
}
