import Foundation
import TestSupport
import Testing

/// Every command names itself. Without `commandName`, swift-argument-parser derives the name
/// with `String(describing:)` of the type, for every subcommand of the tree at every start: 20
/// million instructions of protocol-conformance lookups, a fifth of what a `reswatch check`
/// spends before it reads a file (callgrind, issue 30).
@Suite struct CommandNameTests {
    @Test func everyCommandConfigurationHasACommandName() throws {
        let folder = Repo.root + "/Sources/reswatch"
        var commands = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let pattern = try NSRegularExpression(
                pattern: #"struct (\w+): (?:Async)?ParsableCommand[^{]*\{\s*static let configuration = CommandConfiguration\(\s*(\w+)"#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                commands += 1
                let name = String(text[Range(match.range(at: 1), in: text)!])
                let firstLabel = String(text[Range(match.range(at: 2), in: text)!])
                #expect(firstLabel == "commandName", "\(file): \(name) has no commandName")
            }
        }
        #expect(commands >= 20, "the pattern found only \(commands) commands")
    }
}
