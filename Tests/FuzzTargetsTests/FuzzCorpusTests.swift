import Foundation
import FuzzTargets
import Testing

/// The fuzz targets' seed and regression inputs (Corpus/<target>/) run as tests: every input
/// comes back with an outcome instead of a trap, `ok-*` inputs are read, and `bad-*` inputs are
/// turned down with a reason. `regress-*` inputs once crashed, hung or ran away with memory
/// (issue 10); coming back at all is what they test. `make fuzz` starts from the same folders.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus").path

    static func inputs(_ target: FuzzTarget) -> [String] {
        let dir = corpus + "/" + target.rawValue
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map { dir + "/" + $0 }
    }

    @Test(arguments: FuzzTarget.allCases) func everyInputComesBackWithTheOutcomeItsNameSays(_ target: FuzzTarget) throws {
        let inputs = Self.inputs(target)
        #expect(!inputs.isEmpty, "Corpus/\(target.rawValue) has seeds")
        #expect(inputs.contains { ($0 as NSString).lastPathComponent.hasPrefix("ok-") || target == .check }, "a valid seed")
        for path in inputs {
            let name = (path as NSString).lastPathComponent
            let data = try #require(FileManager.default.contents(atPath: path))
            let outcome = target.run(Array(data))
            if name.hasPrefix("ok-") { #expect(outcome == .accepted, "\(target.rawValue)/\(name): \(outcome)") }
            if name.hasPrefix("bad-") {
                guard case .rejected(let why) = outcome else {
                    Issue.record("\(target.rawValue)/\(name) was accepted")
                    continue
                }
                #expect(!why.isEmpty, "\(target.rawValue)/\(name) says why")
            }
        }
    }

    @Test func theHostileNumbersOfIssue10AreRefusedWithAReason() {
        let sync = Array(#"{"jsonrpc":"2.0","id":1,"method":"sync","params":{"timeout_ms":1e300}}"#.utf8) + [0x0A]
        #expect(FuzzTarget.rpc.run(sync) == .rejected("Invalid params: timeout_ms must be a whole number in 1…600000"))
        let icon = Array(#"{"images":[{"idiom":"iphone","size":"1e19x1e19","scale":"2x","filename":"Icon-60@2x.png"}]}"#.utf8)
        // It used to trap (Double → Int in the icon table); now the set is judged like any other.
        guard case .rejected(let why) = FuzzTarget.check.run([0] + icon) else {
            Issue.record("an icon set with only a 1e19-point entry passed the check")
            return
        }
        #expect(why.contains("icon.missing-required"), "\(why)")
    }
}
