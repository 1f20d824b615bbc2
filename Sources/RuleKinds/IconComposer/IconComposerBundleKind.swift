import Findings
import ProjectModel
import RuleKit
import SystemCalls

/// `iconcomposer.json-invalid`, `iconcomposer.asset-missing`, `iconcomposer.asset-invalid`,
/// `iconcomposer.schema`: an Icon Composer bundle (`X.icon`, Xcode 26) is a document Xcode can
/// compile. Its PNG layers are judged by `png-properties` like images in a set.
/// Sources: Icon Composer (docs/sources.md) and real `.icon` bundles.
package struct IconComposerBundleKind: RuleKind {
    package static let name = "icon-composer"
    package static let summary = "Checks Icon Composer bundles (.icon): icon.json, the layers it names, their files."
    package static let subjects: Set<SubjectKind> = [.iconComposer]

    package static let jsonInvalid = RuleInfo(
        id: "iconcomposer.json-invalid", severity: .error,
        summary: "An Icon Composer bundle whose icon.json is missing, not JSON, not an object, or has no `groups` list.",
        rationale:
            "The .icon folder is the document Xcode 26 builds every icon size from (\"Creating your app icon using Icon Composer\"); actool cannot compile one without its icon.json, and the app ships without an icon.",
        fix: "Restore icon.json from version control, or re-save the icon from Icon Composer.")
    package static let assetMissing = RuleInfo(
        id: "iconcomposer.asset-missing", severity: .error,
        summary: "A layer's `image-name` (or an `image-name-specializations` value) names no file in the bundle's Assets/ folder.",
        rationale:
            "Icon Composer and actool look the layer up in Assets/ by that exact name (spaces and non-ASCII letters included); a missing file leaves the layer empty or fails the compile (giginet/apple-icon-composer-skill validate_icon.py).",
        fix: "Add the file to Assets/ under that name, or re-export the layer from Icon Composer.")
    package static let assetInvalid = RuleInfo(
        id: "iconcomposer.asset-invalid", severity: .error,
        summary: "A layer file that is no usable artwork: an SVG that is not well-formed XML with an <svg> element at the top.",
        rationale:
            "Apple: layers are exported as SVG or PNG; an SVG that does not parse cannot be rendered by Icon Composer or actool. PNG layers are judged by the image.* rules.",
        fix: "Re-export the layer from the design tool (or as PNG if it uses SVG features Icon Composer does not support).")
    package static let schema = RuleInfo(
        id: "iconcomposer.schema", severity: .warning,
        summary:
            "icon.json departs from the shape Icon Composer writes: a wrong type, an unknown key, a colour that does not parse, a number outside 0–1, more than 4 groups.",
        rationale:
            "Apple publishes no icon.json schema, so this is never an error; the shape is what both public reverse-engineered schemas and real files agree on, and Apple's page allows \"a maximum of four groups\".",
        fix: "Open and re-save the icon in Icon Composer, or correct the value at the reported key.")

    package static let rules = [jsonInvalid, assetMissing, assetInvalid, schema]

    package init(parameters: ModuleParameters) {}

    package func evaluate(_ subject: Subject, in context: EvaluationContext) {
        let bundle = RelativePath.name(subject.path)
        let file = RelativePath.join(subject.path, "icon.json")
        let bytes: [UInt8]
        switch context.read(file) {
        case .success(let b): bytes = b
        case .failure(let error) where error.isNotFound:
            context.report(
                Self.jsonInvalid, path: subject.path,
                message: "\(bundle) has no icon.json: it is not an Icon Composer document Xcode can compile")
            return
        case .failure(let error):
            context.report(EngineRules.unreadable, severity: .error, path: file, message: "icon.json cannot be read: \(error.reason)")
            return
        }
        let document: IconComposerDocument
        switch IconComposerDocument.parse(bytes) {
        case .success(let d): document = d
        case .failure(let failure):
            let why =
                switch failure {
                case .notJSON(let detail): "is not JSON (\(detail))"
                case .notAnObject: "is JSON but not an object"
                case .noGroups: "has no \"groups\" list"
                case .groupsNotAnArray: "has \"groups\" that is not a list"
                }
            // Where the parser stopped, where it says so (the line of an unfinished document's end).
            var line = 1
            if case .notJSON(let detail) = failure { line = AssetContentsReader.lineOfCharacterOffset(in: bytes, message: detail) ?? 1 }
            context.report(Self.jsonInvalid, path: file, line: line, message: "icon.json of \(bundle) \(why)")
            return
        }
        for note in document.notes {
            context.report(
                Self.schema, path: file, line: Self.line(of: note.keyPath, in: bytes),
                message: "icon.json of \(bundle): \(note.keyPath): \(note.message)")
        }
        checkAssets(document, bytes: bytes, bundle: subject.path, in: context)
    }

    /// Every named layer file exists in Assets/ (names compared as Swift strings: a name that is
    /// precomposed in icon.json and decomposed on disk is the same name), and SVG layers parse.
    /// A hostile icon.json may name a million layers: files are looked up by name, and the
    /// findings and parses per bundle are capped (the count of the rest is said).
    func checkAssets(_ document: IconComposerDocument, bytes: [UInt8], bundle: String, in context: EvaluationContext) {
        let assets = RelativePath.join(bundle, "Assets")
        let entries = (try? context.list(assets).get()) ?? []
        let files = Dictionary(entries.filter { !$0.isDirectory }.map { ($0.name, $0.name) }, uniquingKeysWith: { a, _ in a })
        let byLowercase = Dictionary(files.keys.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        let json = RelativePath.join(bundle, "icon.json")
        var checked = Set<String>()
        var missing = 0
        var parsed = 0
        for asset in document.assetNames where checked.insert(asset.name).inserted {
            guard !asset.name.contains("/"), let name = files[asset.name] else {
                missing += 1
                guard missing <= Self.maximumFindings else { continue }
                let near = byLowercase[asset.name.lowercased()].map { "; there is '\($0)' (names are case-sensitive)" }
                context.report(
                    Self.assetMissing, path: json, line: Self.line(ofValue: asset.name, in: bytes),
                    message:
                        "\(RelativePath.name(bundle)): layer file '\(asset.name)' (\(asset.keyPath)) is not in Assets/"
                        + (near ?? (entries.isEmpty ? " (the bundle has no Assets/ files)" : "")))
                continue
            }
            guard RelativePath.hasSuffix(name[...], ".svg", ignoringCase: true), parsed < Self.maximumLayerFiles else { continue }
            parsed += 1
            let path = RelativePath.join(assets, name)
            switch context.read(path) {
            case .failure(let error):
                context.report(EngineRules.unreadable, severity: .error, path: path, message: "layer cannot be read: \(error.reason)")
            case .success(let svg):
                if let problem = XMLWellFormedness.check(svg, root: "svg") {
                    context.report(
                        Self.assetInvalid, path: path, line: problem.line,
                        message: "SVG layer '\(name)' is not well-formed XML: \(problem.message)")
                }
            }
        }
        if missing > Self.maximumFindings {
            context.report(
                Self.assetMissing, path: json, line: 1,
                message: "\(RelativePath.name(bundle)): \(missing - Self.maximumFindings) more layer files are not in Assets/ (not listed)")
        }
    }

    /// A bundle names a handful of layers; a hostile one is cut short at these.
    static let maximumFindings = 50
    /// SVG layers parsed per bundle.
    static let maximumLayerFiles = 256

    /// The line of the key a note is about (its last named component), else 1.
    static func line(of keyPath: String, in bytes: [UInt8]) -> Int {
        let last = keyPath.split(separator: ".").last.map { String($0.prefix { $0 != "[" }) } ?? keyPath
        return TextLines.firstLine(in: bytes, containing: ["\"\(last)\""]) ?? 1
    }

    /// The line where a string value stands (JSON-escaped as Icon Composer writes it).
    static func line(ofValue value: String, in bytes: [UInt8]) -> Int {
        var escaped = ""
        for c in value {
            if c == "\\" || c == "\"" { escaped.append("\\") }
            escaped.append(c)
        }
        return TextLines.firstLine(in: bytes, containing: ["\"\(escaped)\""]) ?? 1
    }
}
