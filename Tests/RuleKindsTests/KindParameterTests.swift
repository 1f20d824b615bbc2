import RuleEngine
import RuleKinds
import RuleKit
import ShippedRules
import Testing
import Yams

/// A kind declares its parameters once (`parameters`: name → meaning): the loader rejects any
/// other name, docs/rules.md lists them, and the kind reads exactly those.
@Suite struct KindParameterTests {
    /// Every shipped module entry, and an exec entry, with the kind it names.
    static func entries() throws -> [(kind: any RuleKind.Type, node: Node, file: String)] {
        let exec = """
            rules:
              - kind: exec
                argv: [/bin/true]
                timeout-ms: 1000
                subjects: [image]
                rules: [{id: team.check, severity: warning, summary: s, fix: f}]
            """
        var out: [(any RuleKind.Type, Node, String)] = []
        for (name, text) in ShippedRules.modules.map({ ($0.name, $0.text) }) + [("exec.yaml", exec)] {
            let root = try #require(try Yams.compose(yaml: text))
            for entry in root["rules"]?.sequence ?? [] {
                let kind = try #require(BuiltinKinds.registry.kind(named: entry["kind"]?.string ?? ""))
                var params = Node.Mapping([])
                for (key, value) in entry.mapping ?? [:] where key.string != "kind" { params[key] = value }
                out.append((kind, Node.mapping(params), name))
            }
        }
        return out
    }

    @Test func eachKindReadsExactlyTheParametersItDeclares() throws {
        var checked = Set<String>()
        for (kind, node, file) in try Self.entries() {
            let reads = ParameterReads()
            _ = try kind.init(parameters: ModuleParameters(node: ModuleNode(node), file: file, recordingReadsIn: reads))
            let declared = Set(kind.parameters.keys)
            let undeclared = reads.all.subtracting(declared)
            let unread = declared.subtracting(reads.all)
            #expect(undeclared.isEmpty, "\(kind.name) reads undeclared \(undeclared.sorted())")
            #expect(unread.isEmpty, "\(kind.name) declares unread \(unread.sorted())")
            checked.insert(kind.name)
        }
        let all = Set(BuiltinKinds.all.map { $0.name })
        let missing = all.subtracting(checked)
        #expect(missing.isEmpty, "kinds never made from a module: \(missing.sorted())")
    }

    @Test func anUndeclaredParameterIsAnErrorForEveryKind() {
        for kind in BuiltinKinds.all {
            let set = RuleModuleLoader.parse(
                "rules:\n  - kind: \(kind.name)\n    colour: blue\n", file: "/m.yaml", registry: BuiltinKinds.registry)
            #expect(set.rules.isEmpty, "\(kind.name) took an unknown parameter")
            #expect(
                set.errors.contains { $0.message.hasPrefix("unknown parameter 'colour'") && $0.line == 3 }, "\(kind.name): \(set.errors)")
        }
    }
}
