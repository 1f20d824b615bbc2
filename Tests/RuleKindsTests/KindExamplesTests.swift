import Foundation
import RuleEngine
import RuleKinds
import ShippedRules
import TestSupport
import Testing

/// Every kind's examples behave as labelled, against the shipped modules (SwiftLint's pattern).
@Suite struct KindExamplesTests {
    static let cases: [(String, RuleExample)] = BuiltinKinds.all.flatMap { kind in kind.examples.map { (kind.name, $0) } }

    @Test(arguments: 0..<cases.count)
    func exampleBehavesAsLabelled(_ index: Int) throws {
        let (kind, example) = Self.cases[index]
        let outcome = try ExampleRunner.run(example, rules: Repo.shippedRuleSet(), registry: BuiltinKinds.registry)
        #expect(
            outcome.missing.isEmpty,
            "\(kind): '\(example.name)' should report \(outcome.missing); got \(outcome.diagnostics.map { "\($0.rule) \($0.path): \($0.message)" })"
        )
        #expect(
            outcome.unexpected.isEmpty,
            "\(kind): '\(example.name)' must not report \(outcome.unexpected); got \(outcome.diagnostics.map { "\($0.rule): \($0.message)" })"
        )
    }

    @Test func everyKindHasTriggeringAndPassingExamples() {
        for kind in BuiltinKinds.all {
            #expect(kind.examples.contains { $0.isTriggering }, "\(kind.name) has no triggering example")
            #expect(kind.examples.contains { !$0.passes.isEmpty }, "\(kind.name) has no non-triggering example")
        }
    }

    @Test func everyReportedIdHasATriggeringExample() {
        for kind in BuiltinKinds.all {
            let triggered = Set(kind.examples.flatMap(\.triggers))
            for rule in kind.rules {
                #expect(triggered.contains(rule.id), "\(kind.name): \(rule.id) has no triggering example")
            }
        }
    }

    /// The registry is one explicit list; a kind file that is not in it is dead code.
    @Test func everyKindFileIsRegistered() throws {
        let dir = Repo.root + "/Sources/RuleKinds"
        let files = FileManager.default.enumerator(atPath: dir)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var declared: [String] = []
        for f in files {
            let text = try String(contentsOfFile: dir + "/" + f, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": RuleKind {") {
                if let name = line.split(separator: " ").first(where: { $0.hasSuffix("Kind:") }) {
                    declared.append(String(name.dropLast()))
                }
            }
        }
        let registered = Set(BuiltinKinds.all.map { String(describing: $0) })
        #expect(!declared.isEmpty)
        for name in declared { #expect(registered.contains(name), "\(name) is not in BuiltinKinds.all") }
    }

    @Test func shippedModulesLoadWithoutErrors() {
        let set = Repo.shippedRuleSet()
        #expect(set.errors.isEmpty, "\(set.errors)")
        #expect(set.rules.count >= 5)
    }
}

/// The ids this issue implements are in the contract and reported by shipped modules.
@Suite struct CatalogueContractTests {
    static let implemented = [
        "image.not-png", "image.corrupt", "image.cgbi", "image.interlaced", "image.not-rgb", "image.indexed", "image.16-bit",
        "icon.size-mismatch", "icon.missing-required", "icon.missing-recommended", "icon.marketing-missing",
        "icon.marketing-alpha", "icon.transparent", "icon.file-missing", "icon.unassigned", "icon.duplicate-slot",
        "icon.legacy-slot", "icon.set-missing", "catalog.contents-missing", "catalog.contents-invalid", "plist.parse-error",
        "plist.usage-description-empty", "plist.orientations", "plist.device-capabilities", "lproj.invalid-name",
        "settings.bundle-invalid", "launch.missing", "launch.storyboard-missing", "launch.images-deprecated",
        "plist.icon-keys-with-catalog", "plist.icon-name-missing", "plist.launch-image-entry", "icon.itunesartwork",
        "launch.size-mismatch", "launch.bad-name", "launch.iphone5-missing", "launch.landscape-asset-catalog",
        "plist.invalid-image-path", "lproj.image-mismatch", "icon.stray-template",
    ]

    @Test func implementedIdsMatchTheContract() throws {
        let spec = try String(contentsOfFile: Repo.contract, encoding: .utf8)
        let shipped = Dictionary(Repo.shippedRuleSet().allRuleInfos.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in Self.implemented {
            #expect(spec.contains("| \(id) |"), "\(id) is not in rules.md")
            let info = try #require(shipped[id], "\(id) is not reported by any shipped module")
            // The severity column of rules.md starts with the rule's default severity.
            let row = spec.split(separator: "\n").first { $0.hasPrefix("| \(id) |") }!
            let column = row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
            #expect(column.hasPrefix(info.severity.rawValue), "\(id): rules.md says '\(column)', code says \(info.severity)")
        }
        for info in EngineRules.all {
            let row = try #require(spec.split(separator: "\n").first { $0.hasPrefix("| \(info.id) |") }, "\(info.id) is not in rules.md")
            let column = row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
            #expect(column.hasPrefix(info.severity.rawValue), "\(info.id): rules.md says '\(column)', code says \(info.severity)")
        }
    }

    @Test func itmsCodesMatchTheContract() throws {
        let expected = [
            "image.corrupt": "ITMS-90013", "icon.marketing-missing": "ITMS-90704", "icon.marketing-alpha": "ITMS-90717",
            "icon.missing-required": "ITMS-90022", "plist.parse-error": "ITMS-90037", "image.16-bit": "ITMS-90682",
            "plist.usage-description-empty": "ITMS-90738", "plist.orientations": "ITMS-90474", "launch.iphone5-missing": "ITMS-90096",
            "plist.invalid-image-path": "ITMS-90032",
        ]
        let shipped = Dictionary(Repo.shippedRuleSet().allRuleInfos.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, code) in expected { #expect(shipped[id]?.code == code, "\(id)") }
    }
}

/// Every rule id of the contract (docs/spec/rules.md) is reported by a shipped rule and has a
/// triggering example.
@Suite struct ContractCoverageTests {
    @Test func everyContractIdIsImplementedWithExamples() throws {
        let spec = try String(contentsOfFile: Repo.contract, encoding: .utf8)
        let ids = spec.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| "), let cell = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces),
                cell.contains("."), cell == cell.lowercased(), !cell.contains(" ")
            else { return nil }
            return cell
        }
        #expect(ids.count >= 40, "rules.md lists \(ids.count) ids")
        let shipped = Set(Repo.shippedRuleSet().allRuleInfos.map(\.id))
        let triggered = Set(BuiltinKinds.all.flatMap { $0.examples.flatMap(\.triggers) })
        let passing = Set(BuiltinKinds.all.flatMap { $0.examples.flatMap(\.passes) })
        // The engine's own ids (io.*, config.*, project.*) are tested in CLITests against the binary.
        let engine = Set(EngineRules.all.map(\.id))
        for id in engine { #expect(ids.contains(id), "\(id) is reported by the engine but is not in the contract") }
        for id in ids where !engine.contains(id) {
            #expect(shipped.contains(id), "\(id) (rules.md) has no implementation in the shipped modules")
            #expect(triggered.contains(id), "\(id) has no triggering example")
            #expect(passing.contains(id), "\(id) has no non-triggering example")
        }
    }
}

/// The modules built into the binary are the files of rules/, byte for byte.
@Suite struct ShippedModulesTests {
    @Test func embeddedModulesAreTheRulesFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.shippedRules)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        #expect(ShippedRules.modules.map(\.name) == names)
        for module in ShippedRules.modules {
            let onDisk = try String(contentsOfFile: Repo.shippedRules + "/" + module.name, encoding: .utf8)
            #expect(module.text == onDisk, "\(module.name) differs from rules/\(module.name)")
        }
        let set = ShippedModules.ruleSet()
        #expect(set.errors.isEmpty, "\(set.errors)")
        #expect(set.rules.allSatisfy { $0.source.hasPrefix("<built-in>/rules/") })
    }
}
