import Foundation
import PackagePlugin

/// Embeds the shipped rule modules (`rules/*.yaml` at the package root) into the ShippedRules
/// target at build time: the binary is self-contained, and the embedded text cannot drift from
/// the files (every build regenerates it when one of them changes). Each module's composed tree
/// (`Sources/ShippedRules/Precompiled/NAME.tree`, written by `make precompiled-rules`) is
/// embedded beside it, so a start decodes the tree instead of parsing the YAML.
@main
struct EmbedShippedRules: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let rules = context.package.directoryURL.appending(path: "rules")
        let names = try FileManager.default.contentsOfDirectory(atPath: rules.path)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted()
        let trees = context.package.directoryURL.appending(path: "Sources/ShippedRules/Precompiled")
        let treeNames = ((try? FileManager.default.contentsOfDirectory(atPath: trees.path)) ?? [])
            .filter { $0.hasSuffix(".tree") }
            .sorted()
        let inputs = names.map { rules.appending(path: $0) }
        let treeInputs = treeNames.map { trees.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "ShippedRules+Embedded.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(names.count) shipped rule modules",
                executable: try context.tool(named: "RuleEmbedder").url,
                arguments: [output.path, trees.path] + inputs.map(\.path),
                inputFiles: inputs + treeInputs,
                outputFiles: [output])
        ]
    }
}
