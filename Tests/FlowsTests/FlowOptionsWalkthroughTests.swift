import Foundation
import TestSupport
import Testing

/// docs/contributing/adding-a-check-flag.md: a flag is a field of the flow's options value (read
/// by the flow, in the same file) and a line of its command. Checked from the sources: a field
/// nobody reads, or one the command never sets, is a flag half added.
@Suite struct FlowOptionsWalkthroughTests {
    static func source(_ path: String) throws -> String { try String(contentsOfFile: Repo.root + "/" + path, encoding: .utf8) }

    /// The stored fields of `struct name` in `text`: `package var field`.
    static func fields(of name: String, in text: String) throws -> [String] {
        let start = try #require(text.range(of: "package struct \(name)"))
        let body = text[start.upperBound...]
        var fields: [String] = []
        var depth = 0
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            depth += line.count { $0 == "{" } - line.count { $0 == "}" }
            if depth < 0 || (depth == 0 && line.hasPrefix("}")) { break }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard depth == 1, trimmed.hasPrefix("package var "), !trimmed.contains("{") else { continue }
            let name = trimmed.dropFirst("package var ".count).prefix { $0.isLetter || $0.isNumber }
            fields.append(String(name))
        }
        return fields
    }

    @Test(arguments: [
        ("CheckOptions", "Sources/Flows/Check/CheckRun.swift", "Sources/reswatch/CheckCommand.swift"),
        ("FixOptions", "Sources/Flows/Fix/FixRun.swift", "Sources/reswatch/FixCommand.swift"),
    ])
    func everyOptionIsReadByItsFlowAndSetByItsCommand(_ options: String, _ flow: String, _ command: String) throws {
        let flowText = try Self.source(flow)
        let commandText = try Self.source(command)
        let fields = try Self.fields(of: options, in: flowText)
        #expect(fields.count >= 8, "\(options): \(fields)")
        // Fields the command never sets on purpose: what the process provides itself.
        let fromTheProcess: Set<String> = ["environment"]
        for field in fields {
            let uses = flowText.components(separatedBy: "options.\(field)").count - 1
            #expect(uses >= 1, "\(options).\(field) is not read in \(flow)")
            guard !fromTheProcess.contains(field) else { continue }
            #expect(commandText.contains("options.\(field) ="), "\(command) never sets \(options).\(field)")
        }
    }
}
