import Findings
import Foundation
import RuleKit
import SystemCalls

/// `catalog.duplicate-name`: two sets of the same type and name in one asset catalog.
package struct CatalogNamesKind: RuleKind {
    package static let name = "catalog-names"
    package static let summary =
        "Checks that the sets of an asset catalog have distinct names (folders without provides-namespace share one)."
    package static let subjects: Set<SubjectKind> = [.catalog]

    package static let duplicate = RuleInfo(
        id: "catalog.duplicate-name", severity: .warning,
        summary:
            "Two sets with the same name and type in one asset catalog (folders that do not provide a namespace do not separate names).",
        rationale:
            "actool reports \"warning: The image set name \\\"X\\\" is used by multiple image sets.\" (as Xcode build logs show) and compiles only one of them: which image UIImage(named:) or the icon returns is not the one you meant.",
        fix: "Rename one set, or tick \"Provides Namespace\" on the folder that holds it (then its name is Folder/Name).")
    package static let rules = [duplicate]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        var first: [String: String] = [:]  // "type name" → the first set's path
        // Breadth-first in name order, so "first" is stable.
        var pending: [(dir: String, namespace: String)] = [(subject.path, "")]
        var index = 0
        while index < pending.count {
            let (dir, namespace) = pending[index]
            index += 1
            guard case .success(let entries) = context.list(dir) else { continue }
            for entry in entries where entry.isDirectory {
                let path = RelativePath.join(dir, entry.name)
                if let type = SubjectClassifier.assetSetType(ofDirectory: entry.name) {
                    let base = String(entry.name.dropLast(type.count + 1))
                    let key = "\(type) \(namespace)\(base)"
                    if let earlier = first[key] {
                        let kind = Self.kindName(type)
                        context.report(
                            Self.duplicate, path: path,
                            message:
                                "the \(kind) name \"\(namespace)\(base)\" is used by multiple \(kind)s in \(RelativePath.name(subject.path)): \(earlier) and \(path)",
                            related: [earlier])
                    } else {
                        first[key] = path
                    }
                } else if !Self.assetFolderExtensions.contains(where: { entry.name.hasSuffix("." + $0) }) {
                    // A folder (group): its Contents.json may make it a namespace.
                    let child = Self.providesNamespace(path, context) ? namespace + entry.name + "/" : namespace
                    pending.append((path, child))
                }
            }
        }
    }

    /// Typed folders of a catalog that are assets themselves, not groups to look into.
    static let assetFolderExtensions = [
        "xcassets", "colorset", "dataset", "symbolset", "imagestack", "brandassets", "stickerpack", "sticker", "stickersequence",
        "textureset", "cubetextureset", "mipmapset", "arimageset", "arresourcegroup", "spriteatlas", "iconset", "complicationset",
        "solidimagestack", "imagestacklayer",
    ]

    static func kindName(_ type: String) -> String {
        switch type {
        case "appiconset": "app icon set"
        case "launchimage": "launch image"
        default: "image set"
        }
    }

    static func providesNamespace(_ folder: String, _ context: EvaluationContext) -> Bool {
        guard case .success(let bytes) = context.read(RelativePath.join(folder, "Contents.json")),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let properties = object["properties"] as? [String: Any]
        else { return false }
        return (properties["provides-namespace"] as? Bool) == true
    }

    package static let examples: [RuleExample] = {
        let catalog = "App/Assets.xcassets/"
        let set: ExampleFile = .text("{\"images\":[{\"idiom\":\"universal\",\"filename\":\"a.png\"}]}")
        return [
            RuleExample(
                "two Logo.imageset in plain folders of one catalog",
                files: [catalog + "Logo.imageset/Contents.json": set, catalog + "Brand/Logo.imageset/Contents.json": set],
                triggers: ["catalog.duplicate-name"]),
            RuleExample(
                "a namespace folder separates the names",
                files: [
                    catalog + "Logo.imageset/Contents.json": set, catalog + "Brand/Logo.imageset/Contents.json": set,
                    catalog + "Brand/Contents.json": .text("{\"properties\":{\"provides-namespace\":true}}"),
                ], passes: ["catalog.duplicate-name"]),
            RuleExample(
                "the same name in two catalogs, or as an image set and an app icon set",
                files: [
                    catalog + "Logo.imageset/Contents.json": set, "App/Other.xcassets/Logo.imageset/Contents.json": set,
                    catalog + "Logo.appiconset/Contents.json": .text("{\"images\":[]}"),
                ], passes: ["catalog.duplicate-name"]),
        ]
    }()
}
