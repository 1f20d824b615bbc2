import Findings
import Foundation
import ProjectModel
import RuleKit
import SystemCalls

/// `InfoPlist.xcstrings`, the String Catalog successor of `InfoPlist.strings` (Xcode 15+): its
/// keys are the Info.plist keys it localizes (requirements-2026.md 7.1). It sits in the app's
/// folder rather than in `.lproj` folders, so it is looked for beside the app's Info.plist and at
/// the top of each folder the app target bundles whole.
extension LocalizedInfoPlistKind {
    func evaluateCatalog(_ subject: Subject, in context: EvaluationContext) {
        let project = context.project
        guard project.infoPlist == subject.path else { return }
        var folders = [RelativePath.parent(subject.path)]
        folders += project.ownedPaths.filter { !$0.contains(".") && context.isDirectory($0) }
        var seen = Set<String>()
        for folder in folders where seen.insert(folder).inserted {
            let path = RelativePath.join(folder, "InfoPlist.xcstrings")
            guard context.exists(path), case .success(let bytes) = context.read(path) else { continue }
            guard let keys = Self.catalogKeys(bytes) else {
                context.report(
                    Self.stringsInvalid, path: path, line: 1,
                    message: "InfoPlist.xcstrings is not a String Catalog (JSON with a \"strings\" object): Xcode cannot compile it")
                continue
            }
            checkKeys(keys, path: path, context: context)
        }
    }

    /// The keys of a String Catalog's `strings`, each with the line it is written on.
    static func catalogKeys(_ bytes: [UInt8]) -> [(key: String, line: Int)]? {
        guard bytes.count < 8 << 20, let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let strings = object["strings"] as? [String: Any]
        else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return strings.keys.sorted().map { key in
            let quoted = "\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            let line = text.range(of: quoted).map { text[..<$0.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 } } ?? 1
            return (key, line)
        }
    }
}
