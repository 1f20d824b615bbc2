import Foundation
import TestSupport
import Testing

/// The folders of a module say its layers: a folder may use another's types only one way. A type
/// is the folder's that declares it at the top level of one of its files; a file uses a type when
/// its code (comments left out) names it. A cycle between folders is a layer that is not one
/// (the rule engine's four folders once referenced one another through 17 files).
@Suite struct FolderCycleTests {
    struct SourceFile {
        let folder: String
        let text: String
    }

    static func files(of module: String) throws -> [SourceFile] {
        let base = Repo.root + "/Sources/" + module
        var files: [SourceFile] = []
        let walker = FileManager.default.enumerator(atPath: base)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let folder = (path as NSString).deletingLastPathComponent
            let text = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
            files.append(SourceFile(folder: folder.isEmpty ? "." : folder, text: text))
        }
        return files
    }

    /// Which folder uses which, and through which type names.
    static func edges(_ files: [SourceFile]) -> [String: [String: Set<String>]] {
        let declaration =
            /^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|final|indirect|nonisolated)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)/
        var owner: [String: Set<String>] = [:]
        for file in files {
            for line in file.text.split(separator: "\n") {
                if let match = line.firstMatch(of: declaration) { owner[String(match.1), default: []].insert(file.folder) }
            }
        }
        var edges: [String: [String: Set<String>]] = [:]
        for file in files {
            var words = Set<String>()
            for line in file.text.split(separator: "\n") {
                let code: Substring = line.firstRange(of: "//").map { line[..<$0.lowerBound] } ?? line
                // Identifiers, split as the compiler does ("Alpha.self" is two; a Unicode word boundary joins them).
                for word in code.matches(of: /[A-Za-z_][A-Za-z0-9_]*/) where word.0.first!.isUppercase { words.insert(String(word.0)) }
            }
            for word in words {
                for folder in owner[word] ?? [] where folder != file.folder {
                    edges[file.folder, default: [:]][folder, default: []].insert(word)
                }
            }
        }
        return edges
    }

    /// A cycle through `edges`, as the folders on it (empty: none).
    static func cycle(_ edges: [String: [String: Set<String>]]) -> [String] {
        var state: [String: Int] = [:]  // 1 on the path, 2 done
        var path: [String] = []
        func visit(_ folder: String) -> [String]? {
            state[folder] = 1
            path.append(folder)
            for next in (edges[folder] ?? [:]).keys.sorted() {
                if state[next] == 1 { return Array(path[path.firstIndex(of: next)!...]) + [next] }
                if state[next] == nil, let found = visit(next) { return found }
            }
            path.removeLast()
            state[folder] = 2
            return nil
        }
        for folder in edges.keys.sorted() where state[folder] == nil {
            if let found = visit(folder) { return found }
        }
        return []
    }

    @Test func noModuleHasFoldersThatUseOneAnother() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/Sources").sorted()
        var checked = 0
        for module in modules {
            let files = try Self.files(of: module)
            guard Set(files.map(\.folder)).count > 1 else { continue }
            checked += 1
            let edges = Self.edges(files)
            let cycle = Self.cycle(edges)
            guard !cycle.isEmpty else { continue }
            let steps = zip(cycle, cycle.dropFirst()).map {
                "\($0) → \($1) (\(edges[$0]![$1]!.sorted().prefix(4).joined(separator: ", ")))"
            }
            Issue.record("Sources/\(module): its folders use one another: \(steps.joined(separator: "; "))")
        }
        #expect(checked >= 6, "modules with folders: \(checked)")
    }

    /// The check finds a cycle where there is one.
    @Test func aCycleIsFound() {
        let files = [
            SourceFile(folder: "A", text: "struct Alpha { let b: Beta }\n"),
            SourceFile(folder: "B", text: "enum Beta { static let a = Alpha.self }\n"),
            SourceFile(folder: "C", text: "struct Gamma { let a: Alpha }\n"),
        ]
        let cycle = Self.cycle(Self.edges(files))
        #expect(cycle == ["A", "B", "A"])
        #expect(Self.cycle(Self.edges(Array(files.dropFirst()))).isEmpty)
    }
}
