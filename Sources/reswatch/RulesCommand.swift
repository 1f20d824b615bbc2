import ArgumentParser
import Findings
import Flows
import Foundation
import Reporting
import RuleEngine
import RuleKinds
import RuleKit
import SystemCalls

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Lists rules, explains one, or validates a rule module.",
        subcommands: [List.self, Explain.self, Check.self, Docs.self])

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Explains a rule: what it checks, why, its severity and ITMS code, how to turn it off, and examples.",
            discussion: "An id no rule reports exits 2 and names the nearest ids.")
        @Argument(help: "The rule id (icon.marketing-alpha).", completion: RuleIDCompletion.kind) var id: String
        @OptionGroup var extraRules: ExtraRules

        func run() throws {
            let set = try RuleLocations.loadRules(extra: extraRules.rules)
            do {
                let explanation = try RuleExplanation(id: id, rules: set, kinds: BuiltinKinds.all)
                let base =
                    ProcessEnvironment.current()["RESWATCH_RULES_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? RuleLinks.defaultBase
                print(explanation.text(rulesURL: base))
            } catch {
                StandardError.say("reswatch: \(error)")
                throw ExitCode(2)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Lists every rule id with its severity, code and source module.")
        @OptionGroup var extraRules: ExtraRules
        @Option(help: "Output format: text or json.") var format: OutputFormat = .text

        func run() throws {
            let set = try RuleLocations.loadRules(extra: extraRules.rules)
            var rows: [(RuleInfo, LoadedRule)] = []
            for r in set.rules { for info in r.reported { rows.append((info, r)) } }
            rows.sort { $0.0.id < $1.0.id }
            switch format {
            case .json:
                let items = rows.map {
                    [
                        "id": $0.0.id, "severity": $0.0.severity.rawValue, "code": $0.0.code ?? "", "kind": $0.1.kindName,
                        "module": $0.1.source, "summary": $0.0.summary,
                    ]
                }
                let data = try JSONSerialization.data(
                    withJSONObject: ["rules": items, "errors": set.errors.map(\.description)], options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            case .text:
                var seen = Set<String>()
                // As wide as the longest id: an id is never cut (people copy them into --ignore).
                let width = max(32, rows.map(\.0.id.count).max() ?? 0)
                for (info, rule) in rows where seen.insert(info.id + rule.source).inserted {
                    let id = info.id.padding(toLength: width, withPad: " ", startingAt: 0)
                    let sev = info.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                    let code = (info.code ?? "").padding(toLength: 11, withPad: " ", startingAt: 0)
                    print("\(id) \(sev) \(code) \(rule.kindName)  \(info.summary)")
                }
                for e in set.errors { StandardError.say("\(e)") }
            }
            if !set.errors.isEmpty { throw ExitCode(2) }
        }
    }

    struct Docs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "docs",
            abstract: "Prints docs/rules.md to standard output, generated from the rule kinds and shipped modules.")

        func run() throws {
            print(RuleDocs.markdown(rules: ShippedModules.ruleSet(registry: BuiltinKinds.registry), kinds: BuiltinKinds.all))
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validates a rule module file and runs its examples against the shipped rules plus it.")
        @Argument(help: "The module (.yaml) to check.", completion: .file(extensions: ["yaml", "yml"])) var file: String

        func run() throws {
            let path = FileSystem.absolutePath(file)
            let bytes: [UInt8]
            do { bytes = try FileSystem.readFile(path) } catch {
                StandardError.say("reswatch: cannot read \(FileName.display(file)): \(error.reason)")
                throw ExitCode(2)
            }
            let module = RuleModuleLoader.parse(String(decoding: bytes, as: UTF8.self), file: path, registry: BuiltinKinds.registry)
            for e in module.errors {
                print("\(FileName.display(e.file)):\(e.line.map(String.init) ?? "?"): error: \(FileName.display(e.message))")
            }
            if !module.errors.isEmpty { throw ExitCode(1) }
            print(
                "\(FileName.display(file)): \(module.rules.count) rule(s) load: \(module.rules.flatMap { $0.reported.map(\.id) }.sorted().joined(separator: ", "))"
            )
            let base = try RuleLocations.loadRules(extra: []).overlaid(with: module)
            var failed = 0
            for (_, example) in module.moduleExamples {
                let outcome = try ExampleRunner.run(example, rules: base, registry: BuiltinKinds.registry)
                if outcome.passed {
                    print("  ok    \(example.name)")
                } else {
                    failed += 1
                    print("  FAIL  \(example.name): missing \(outcome.missing), unexpected \(outcome.unexpected)")
                }
            }
            print("\(module.moduleExamples.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }
}
