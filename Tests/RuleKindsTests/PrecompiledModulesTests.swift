import Foundation
import ProjectModel
import RuleEngine
import RuleKinds
import RuleKit
import ShippedRules
import Testing

/// The built-in modules are loaded from trees composed ahead of time (ShippedRules+Precompiled.swift),
/// not parsed at every start (issue 63): the trees must be those of the embedded text, and a
/// module loads to the same rules from its tree as from its YAML.
@Suite struct PrecompiledModulesTests {
    /// Where `make precompiled-rules` has this test write the file.
    static let writeTo = ProcessInfo.processInfo.environment["RESWATCH_WRITE_PRECOMPILED"]

    static func composed(_ text: String) throws -> ModuleNode {
        ModuleNode(try #require(try YAMLLimits.compose(text, bounded: false).get()))
    }

    @Test func everyBuiltInModuleIsPrecompiledFromItsText() throws {
        var entries: [(name: String, compiled: ShippedRules.Precompiled)] = []
        for module in ShippedRules.modules {
            let compiled = ShippedRules.Precompiled(digest: ShippedRules.digest(module.text), tree: try Self.composed(module.text).encoded)
            entries.append((module.name, compiled))
        }
        if let directory = Self.writeTo {
            try Self.write(entries, to: directory)
            return
        }
        for entry in entries {
            let embedded = ShippedRules.modules.first { $0.name == entry.name }?.precompiled
            #expect(
                embedded == entry.compiled,
                "\(entry.name): rules/ changed since Sources/ShippedRules/Precompiled/ was written: run `make precompiled-rules`")
        }
    }

    /// The loader takes the tree only for the embedded text under its built-in name.
    @Test func theTreeIsUsedOnlyForTheEmbeddedText() throws {
        guard Self.writeTo == nil else { return }
        for module in ShippedRules.modules {
            let path = ShippedRules.displayPath(module.name)
            let tree = try #require(ShippedModules.precompiledTree(path, text: module.text), "\(module.name)")
            #expect(tree == (try Self.composed(module.text)))
            #expect(ShippedModules.precompiledTree(path, text: module.text + "\n# edited\n") == nil)
            #expect(ShippedModules.precompiledTree("/etc/reswatch/rules/\(module.name)", text: module.text) == nil)
        }
    }

    /// Each module loads to the same rules, errors and examples from its tree as from its YAML.
    @Test func aModuleLoadsAlikeFromTreeAndText() throws {
        for module in ShippedRules.modules {
            let path = ShippedRules.displayPath(module.name)
            let fromTree = RuleModuleLoader.parse(module.text, file: path, registry: BuiltinKinds.registry)
            // The same text with a comment appended is no longer the embedded one: parsed as YAML.
            let fromText = RuleModuleLoader.parse(module.text + "\n# read as YAML\n", file: path, registry: BuiltinKinds.registry)
            #expect(fromTree.allRuleInfos == fromText.allRuleInfos, "\(module.name)")
            #expect(fromTree.rules.map(\.source) == fromText.rules.map(\.source), "\(module.name)")
            #expect(fromTree.rules.map(\.kindName) == fromText.rules.map(\.kindName), "\(module.name)")
            #expect(fromTree.errors == fromText.errors && fromTree.errors.isEmpty, "\(module.name): \(fromTree.errors)")
            #expect(
                fromTree.moduleExamples.map { "\($0.module) \($0.example.name) \($0.example.line)" }
                    == fromText.moduleExamples.map { "\($0.module) \($0.example.name) \($0.example.line)" }, "\(module.name)")
        }
    }

    /// One `NAME.tree` per module (`digest 0x…`, then the tree); trees of modules gone are removed.
    static func write(_ entries: [(name: String, compiled: ShippedRules.Precompiled)], to directory: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for stale in try files.contentsOfDirectory(atPath: directory) where stale.hasSuffix(".tree") {
            if !entries.contains(where: { $0.name + ".tree" == stale }) { try files.removeItem(atPath: directory + "/" + stale) }
        }
        for entry in entries {
            let text = "digest 0x\(String(entry.compiled.digest, radix: 16))\n" + entry.compiled.tree
            try text.write(toFile: directory + "/" + entry.name + ".tree", atomically: true, encoding: .utf8)
        }
    }
}
