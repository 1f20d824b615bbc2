import Foundation
import RuleEngine
import RuleKinds
import TestSupport
import Testing

/// One grouping for rules: a shipped module `rules/M.yaml` is named `M`, switches on kinds whose
/// Swift files live in `Sources/RuleKinds/<Folder>/` with `Folder.lowercased() == M`, and every id
/// those kinds report starts with `M.` — so an id names its module file and its source folder.
@Suite struct RuleGroupingTests {
    /// Folders that group no ids: shared logic, and `exec` (whose ids each module declares).
    static let foldersWithoutIDs: Set<String> = ["Helpers", "Exec"]
    /// Ids reported outside their prefix's group, each with why the split would cost a user more.
    static let crossGroupIDs: [String: String] = [
        // A missing icon follows from the file name Info.plist lists wrongly; one kind reports both
        // so the icon finding folds into the plist one (one cause, one finding).
        "legacy-icons": "plist.invalid-image-path"
    ]

    /// Kind name → the folder its Swift file lives in, read from the sources.
    static func kindFolders() throws -> [String: String] {
        let base = Repo.root + "/Sources/RuleKinds"
        var folders: [String: String] = [:]
        for folder in try FileManager.default.contentsOfDirectory(atPath: base).sorted() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                continue
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: base + "/" + folder) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: base + "/" + folder + "/" + file, encoding: .utf8)
                guard let range = text.range(of: #"static let name = "[a-z-]+""#, options: .regularExpression) else { continue }
                let name = text[range].split(separator: "\"")[1]
                folders[String(name)] = folder
            }
        }
        return folders
    }

    /// Each shipped module loaded alone (loaded together, a later module's rule replaces an
    /// earlier one's with the same ids, which would hide a kind switched on twice).
    static func shippedRules() -> [LoadedRule] {
        ShippedModules.files.flatMap { file in
            let set = RuleModuleLoader.load(files: [file], registry: BuiltinKinds.registry)
            #expect(set.errors.isEmpty, "\(file.path): \(set.errors)")
            return set.rules
        }
    }

    @Test func moduleFolderAndIDPrefixAgree() throws {
        let folders = try Self.kindFolders()
        for rule in Self.shippedRules() {
            let module = ((rule.file as NSString).lastPathComponent as NSString).deletingPathExtension
            #expect(rule.module == module, "\(rule.file) declares module: \(rule.module)")
            let folder = try #require(folders[rule.kindName], "no Swift file declares kind \(rule.kindName)")
            #expect(folder.lowercased() == module, "kind \(rule.kindName) lives in \(folder)/ but is switched on in \(module).yaml")
            for info in rule.reported where !info.id.hasPrefix(module + ".") && Self.crossGroupIDs[rule.kindName] != info.id {
                Issue.record("kind \(rule.kindName) (module \(module)) reports \(info.id)")
            }
        }
    }

    @Test func everyKindIsSwitchedOnInExactlyOneModuleOfItsFolder() throws {
        let folders = try Self.kindFolders()
        let rules = Self.shippedRules()
        for kind in BuiltinKinds.all where kind.name != "exec" {
            let modules = rules.filter { $0.kindName == kind.name }.map(\.module)
            #expect(modules.count == 1, "\(kind.name) is switched on in \(modules)")
        }
        let shippedFolders = Set(rules.compactMap { folders[$0.kindName] })
        let allFolders = Set(folders.values).subtracting(Self.foldersWithoutIDs)
        #expect(allFolders == shippedFolders, "folders without a module: \(allFolders.subtracting(shippedFolders))")
        // The exceptions are real: each names an id its kind reports.
        for (kind, id) in Self.crossGroupIDs {
            #expect(BuiltinKinds.all.first { $0.name == kind }?.rules.contains { $0.id == id } == true, "\(kind) \(id)")
        }
    }
}
