import Foundation
import TestSupport
import Testing

/// The module graph is what the code says: each module's `import`s equal the table in
/// docs/contributing/modules.md and its `dependencies` in Package.swift, and nothing re-exports
/// a module (so nothing is used without being declared).
@Suite struct ModuleGraphTests {
    static let sources = Repo.root + "/Sources"

    /// The packages' products a module may import, by the names Package.swift gives them.
    static func products() throws -> Set<String> {
        let manifest = try String(contentsOfFile: Repo.root + "/Package.swift", encoding: .utf8)
        return Set(manifest.matches(of: /\.product\(name: "([^"]+)"/).map { String($0.1) })
    }

    /// Each module folder's imports of other modules and products.
    static func imports() throws -> [String: Set<String>] {
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: sources))
        let known = modules.union(try products())
        var out: [String: Set<String>] = [:]
        for module in modules {
            var found = Set<String>()
            let walker = FileManager.default.enumerator(atPath: sources + "/" + module)
            while let file = walker?.nextObject() as? String {
                guard file.hasSuffix(".swift"), let text = try? String(contentsOfFile: sources + "/" + module + "/" + file, encoding: .utf8)
                else { continue }
                for match in text.matches(of: /(?m)^(?:@testable )?import ([A-Za-z_]+)/) where known.contains(String(match.1)) {
                    found.insert(String(match.1))
                }
            }
            out[module] = found
        }
        return out
    }

    /// The docs' table: module → imports (`—`: none).
    static func documented() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: Repo.root + "/docs/contributing/modules.md", encoding: .utf8)
        var out: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let names = cells[1].matches(of: /`([^`]+)`/).map { String($0.1) }
            let imports = Set(cells[3].matches(of: /`([^`]+)`/).map { String($0.1) })
            for name in names { out[name] = imports }
        }
        return out
    }

    @Test func importsMatchTheDocumentedGraph() throws {
        let actual = try Self.imports()
        let documented = try Self.documented()
        for (module, imports) in actual.sorted(by: { $0.key < $1.key }) {
            guard let listed = documented[module] else {
                Issue.record("Sources/\(module) has no row in docs/contributing/modules.md")
                continue
            }
            #expect(
                imports == listed,
                "\(module): imports \(imports.subtracting(listed).sorted()) not in the table; the table lists \(listed.subtracting(imports).sorted()) it does not import"
            )
        }
        for module in documented.keys where actual[module] == nil {
            Issue.record("docs/contributing/modules.md lists \(module), which is not in Sources/")
        }
    }

    @Test func packageDependenciesAreTheImports() throws {
        // A scratch path of its own: `swift test` holds the lock on .build.
        let scratch = try TempTree()
        let result = try runCommand(
            "/usr/bin/env", ["swift", "package", "--package-path", Repo.root, "--scratch-path", scratch.path, "dump-package"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        let actual = try Self.imports()
        var checked = 0
        for target in targets {
            guard let name = target["name"] as? String, let imports = actual[name],
                !["test", "plugin"].contains(target["type"] as? String ?? "")
            else { continue }
            let declared = Set(
                (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
                    ((dependency["byName"] ?? dependency["product"] ?? dependency["target"]) as? [Any])?.first as? String
                })
            #expect(declared == imports, "\(name): declared \(declared.sorted()), imports \(imports.sorted())")
            checked += 1
        }
        #expect(checked >= 20, "every module's dependencies were compared")
    }

    /// A rule kind is written against `RuleKit` (issue 58): neither the engine nor the daemon.
    @Test func ruleKindsNeedNeitherTheEngineNorTheDaemon() throws {
        let kinds = try #require(try Self.imports()["RuleKinds"])
        #expect(kinds.contains("RuleKit"))
        for module in ["RuleEngine", "Daemon", "SocketServer", "LanguageServer", "Repair", "Reporting", "Watcher"] {
            #expect(!kinds.contains(module), "RuleKinds imports \(module)")
        }
        let kit = try #require(try Self.imports()["RuleKit"])
        #expect(kit.isSubset(of: ["Findings", "ImageFacts", "ProjectModel", "SystemCalls", "Yams"]), "RuleKit imports \(kit.sorted())")
    }

    @Test func noModuleReExportsAnother() throws {
        let walker = FileManager.default.enumerator(atPath: Self.sources)
        while let file = walker?.nextObject() as? String {
            guard file.hasSuffix(".swift"), let text = try? String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8) else {
                continue
            }
            #expect(!text.contains("@_exported"), "\(file) re-exports a module: declare the import where it is used instead")
        }
    }
}
