import Foundation
import TestSupport
import Testing

/// Files and functions a newcomer can read in one sitting: no source file in `Sources/` over 400
/// lines, no function (or initializer) over 80. A longer one is split by what it does (one
/// function per rule id, per step), not by line count.
@Suite struct SourceShapeTests {
    static let maximumFileLines = 400
    static let maximumFunctionLines = 80

    /// Every Swift and C file under Sources/, relative to it, with its lines.
    static func sourceFiles() throws -> [(path: String, lines: [Substring])] {
        let base = Repo.root + "/Sources"
        var files: [(String, [Substring])] = []
        let walker = FileManager.default.enumerator(atPath: base)
        while let file = walker?.nextObject() as? String {
            guard file.hasSuffix(".swift") || file.hasSuffix(".c") || file.hasSuffix(".h") else { continue }
            let text = try String(contentsOfFile: base + "/" + file, encoding: .utf8)
            files.append((file, text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// Lines from a declaration to its closing brace, by counting braces outside string literals
    /// and comments (good enough for code that `swift format` has laid out).
    static func length(from start: Int, in lines: [Substring]) -> Int {
        var depth = 0
        var opened = false
        for index in start..<lines.count {
            // A requirement without a body (in a protocol) ends where the next declaration starts.
            if !opened, index > start, lines[index].prefixMatch(of: Self.declaration) != nil { return 1 }
            var line = lines[index]
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let code = line.replacing(/"(?:\\.|[^"\\])*"/, with: "")
            for character in code {
                if character == "{" {
                    depth += 1
                    opened = true
                } else if character == "}" {
                    depth -= 1
                    if !opened { return 1 }  // the enclosing type's closing brace
                }
            }
            if opened && depth <= 0 { return index - start + 1 }
        }
        return lines.count - start
    }

    /// Every YAML document is composed by `YAMLLimits.compose`, which names the encoding: Yams'
    /// entry points left to their default one print to standard output when YAMS_DEFAULT_ENCODING
    /// is set (CheckCommandTests.theYAMLParsersEnvironmentVariableLeavesTheReportAlone).
    @Test func yamlIsComposedOnlyThroughYAMLLimits() throws {
        let entryPoints = /\b(?:compose|compose_all|load|load_all)\(yaml:|Parser\(yaml:|YAMLDecoder\(/
        for (path, lines) in try Self.sourceFiles() where path != "ProjectModel/Config/YAMLLimits.swift" {
            for (index, line) in lines.enumerated() where line.contains(entryPoints) {
                Issue.record("Sources/\(path):\(index + 1) parses YAML outside YAMLLimits.compose: \(line)")
            }
        }
        let limits = try String(contentsOfFile: Repo.root + "/Sources/ProjectModel/Config/YAMLLimits.swift", encoding: .utf8)
        #expect(limits.contains("Yams.compose(yaml: text, .basic, .default, .utf8)"))
    }

    /// The command-line entry point is synchronous and waits for its task: an `async` main ends in
    /// `dispatch_main()`, whose `pthread_exit` unwinds the main thread through the unwind tables
    /// and kept 0.7 MB of them resident in the daemon (Reswatch.main, docs/performance.md).
    @Test func theEntryPointIsNotAnAsyncMain() throws {
        let files = try Self.sourceFiles()
        let entry = try #require(files.first { $0.path == "reswatch/Reswatch.swift" })
        #expect(entry.lines.contains { $0.contains("static func main() {") })
        #expect(entry.lines.contains { $0.contains("Task.detached") })
        for (path, lines) in files {
            for (index, line) in lines.enumerated() where line.contains("static func main() async") {
                Issue.record("Sources/\(path):\(index + 1) declares an async main: \(line)")
            }
        }
    }

    @Test func noSourceFileIsOverFourHundredLines() throws {
        for (path, lines) in try Self.sourceFiles() {
            let count = lines.last?.isEmpty == true ? lines.count - 1 : lines.count
            #expect(count <= Self.maximumFileLines, "Sources/\(path) has \(count) lines")
        }
    }

    /// A function or initializer declaration's first line.
    nonisolated(unsafe) static let declaration =
        /^\s*(?:@\w+\s+)*(?:(?:public|package|private|fileprivate|internal|static|mutating|nonisolated|override|final)\s+)*(?:func\s|init[?!]?[(<])/

    @Test func noFunctionIsOverEightyLines() throws {
        for (path, lines) in try Self.sourceFiles() where path.hasSuffix(".swift") {
            for index in lines.indices where lines[index].prefixMatch(of: Self.declaration) != nil {
                let count = Self.length(from: index, in: lines)
                #expect(
                    count <= Self.maximumFunctionLines,
                    "Sources/\(path):\(index + 1) is \(count) lines: \(lines[index].trimmingCharacters(in: .whitespaces))")
            }
        }
    }

    /// The measure itself: a long function is found, a short one passes.
    @Test func theMeasureCountsToTheClosingBrace() {
        let body = Array(repeating: Substring("    let x = \"{\" // }"), count: 90)
        let long: [Substring] = ["func f() {"] + body + ["}"]
        #expect(Self.length(from: 0, in: long) == 92)
        let short: [Substring] = ["init(a: Int) {", "    if a > 0 {", "    }", "}", "func g() {}"]
        #expect(Self.length(from: 0, in: short) == 4)
        let requirement: [Substring] = ["    func h() -> Int", "    func i()", "}"]
        #expect(Self.length(from: 0, in: requirement) == 1)
        #expect(Self.length(from: 1, in: requirement) == 1)
    }
}
