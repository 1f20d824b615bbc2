import Foundation
import TestSupport
import Testing

/// `public` is the library surface (the modules Package.swift's library products vend);
/// everything only the package uses is `package`, so a newcomer can tell the API a rule author
/// or embedder relies on from the inside of the tool.
@Suite struct AccessLevelTests {
    /// Modules of the library products.
    static func libraryModules() throws -> Set<String> {
        let manifest = try String(contentsOfFile: Repo.root + "/Package.swift", encoding: .utf8)
        var modules = Set<String>()
        for product in manifest.matches(of: /\.library\(\s*name: "[^"]+",\s*targets: \[([^\]]*)\]/) {
            for name in product.1.matches(of: /"([^"]+)"/) { modules.insert(String(name.1)) }
        }
        return modules
    }

    @Test func onlyLibraryModulesDeclareAnythingPublic() throws {
        let library = try Self.libraryModules()
        #expect(library.contains("RuleEngine") && library.contains("ReswatchProtocol") && !library.contains("Daemon"))
        let sources = Repo.root + "/Sources"
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() where !library.contains(module) {
            let walker = FileManager.default.enumerator(atPath: sources + "/" + module)
            while let file = walker?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOfFile: sources + "/" + module + "/" + file, encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains(/^\s*(?:@[\w().,: ]+?\s+)*public\b/) {
                    Issue.record("Sources/\(module)/\(file):\(index + 1) is public in a module no library vends: make it package")
                }
            }
        }
    }

    /// docs/contributing/modules.md states each vended module's public ceiling; a module over it
    /// grew its API without saying so.
    @Test func eachVendedModuleStaysUnderItsPublicCeiling() throws {
        let doc = try String(contentsOfFile: Repo.root + "/docs/contributing/modules.md", encoding: .utf8)
        var ceilings: [String: Int] = [:]
        for row in doc.matches(of: /\n\| `(\w+)` \| (\d+) \|/) { ceilings[String(row.1)] = Int(row.2) }
        let library = try Self.libraryModules()
        #expect(Set(ceilings.keys) == library, "a ceiling for each vended module: \(ceilings.keys.sorted()) vs \(library.sorted())")
        let sources = Repo.root + "/Sources"
        for (module, ceiling) in ceilings.sorted(by: { $0.key < $1.key }) {
            var count = 0
            let walker = FileManager.default.enumerator(atPath: sources + "/" + module)
            while let file = walker?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOfFile: sources + "/" + module + "/" + file, encoding: .utf8)
                count += text.split(separator: "\n").count { $0.contains(/^\s*(?:@[\w().,: ]+?\s+)*(?:public|open)\b/) }
            }
            #expect(
                count <= ceiling, "\(module) declares \(count) public names, over its ceiling of \(ceiling) (docs/contributing/modules.md)")
            #expect(count > 0, "\(module) vends nothing")
        }
    }
}
