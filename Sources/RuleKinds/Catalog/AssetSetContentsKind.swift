import Findings
import ImageFacts
import RuleKit
import SystemCalls

/// `catalog.contents-*`: every .appiconset / .imageset / .launchimage has a well-formed Contents.json.
package struct AssetSetContentsKind: RuleKind {
    package static let name = "asset-set-contents"
    package static let summary = "Checks that asset sets have a readable, well-formed Contents.json."
    package static let subjects: Set<SubjectKind> = [.assetSet]

    package static let missing = RuleInfo(
        id: "catalog.contents-missing", severity: .error, summary: "An .appiconset/.imageset/.launchimage folder without Contents.json.",
        rationale: "actool ignores or rejects a set it cannot describe; the icon or image is silently missing from the build.",
        fix: "Restore Contents.json (Xcode writes it when you open the catalog), or delete the stray folder.")
    package static let invalid = RuleInfo(
        id: "catalog.contents-invalid", severity: .error, summary: "Contents.json is not valid JSON or has the wrong shape.",
        rationale: "actool fails to compile the catalog (\"The operation couldn’t be completed\").",
        fix: "Fix the JSON at the reported line (a merge conflict or a generator bug is the usual cause).")

    package static let rules = [missing, invalid]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let file = RelativePath.join(subject.path, "Contents.json")
        guard let result = context.assetContents(file) else {
            if context.isDirectory(file) {
                context.report(Self.invalid, path: file, message: "Contents.json is a directory")
            } else if subject.path.contains(".xcassets/") || !context.project.isMarked {
                // Only a catalog's sets are compiled: in a project, a folder named X.imageset
                // outside any catalog (a React Native template, issue 58) is no set of actool's.
                // A set checked on its own, with no project around it, is taken for one.
                context.report(Self.missing, path: subject.path, message: "\(RelativePath.name(subject.path)) has no Contents.json")
            }
            return
        }
        switch result {
        case .failure(.unreadable(let reason)):
            // Not judged: what reswatch could not read is said as such (an error: it was not checked).
            context.report(EngineRules.unreadable, severity: .error, path: file, message: "Contents.json cannot be read: \(reason)")
        case .failure(let error):
            context.report(Self.invalid, path: file, line: error.line, message: "Contents.json: \(error.description)")
        case .success(let contents):
            if !contents.hasImagesKey {
                context.report(Self.invalid, path: file, line: 1, message: "Contents.json has no \"images\" array")
            }
        }
    }

    package static let examples: [RuleExample] = {
        let set = "App/Assets.xcassets/Logo.imageset"
        return [
            RuleExample(
                "a well-formed set passes",
                files: [
                    set + "/Contents.json": .text("{\"images\":[{\"idiom\":\"universal\",\"filename\":\"a.png\"}]}"),
                    set + "/a.png": .png(PNGSpec(width: 4, height: 4)),
                ], passes: rules.map(\.id)),
            RuleExample(
                "no Contents.json", files: [set + "/a.png": .png(PNGSpec(width: 4, height: 4))], triggers: ["catalog.contents-missing"]),
            RuleExample(
                "in a project, a set-named folder outside any asset catalog is no set (actool never compiles it)",
                files: [
                    "App/.reswatch.yaml": ExampleTrees.config(),
                    "App/assets/brand/ios/Logo.imageset/a.png": .png(PNGSpec(width: 4, height: 4)),
                ], passes: ["catalog.contents-missing"]),
            RuleExample("a 0-byte Contents.json", files: [set + "/Contents.json": .text("")], triggers: ["catalog.contents-invalid"]),
            RuleExample(
                "broken JSON", files: [set + "/Contents.json": .text("{\n  \"images\" : [\n    { \"idiom\" : \"universal\", }\n  ]\n")],
                triggers: ["catalog.contents-invalid"]),
            RuleExample(
                "images is not an array", files: [set + "/Contents.json": .text("{\"images\": {}}")], triggers: ["catalog.contents-invalid"]
            ),
        ]
    }()
}
