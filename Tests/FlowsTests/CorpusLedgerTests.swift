import Foundation
import TestSupport
import Testing

/// docs/accuracy/ledger.tsv judges every error and warning reswatch reports on the corpus. A new
/// finding must be judged before it lands; a finding judged false must never come back.
@Suite(.enabled(if: Repo.sharedAvailable, "needs ../shared/corpus beside the clone (a lone clone skips the corpus tests)"))
struct CorpusLedgerTests {
    struct Row: Sendable {
        let app, rule, path: String
        let count: Int
        let defect: Bool
        let reason: String

        func matches(app: String, rule: String, path: String) -> Bool {
            guard app == self.app, rule == self.rule else { return false }
            return self.path.hasSuffix("*") ? path.hasPrefix(String(self.path.dropLast())) : path == self.path
        }
    }

    static let rows: [Row] = {
        guard let text = try? String(contentsOfFile: Repo.root + "/docs/accuracy/ledger.tsv", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 6, let count = Int(cells[3]) else { return nil }
            return Row(app: cells[0], rule: cells[1], path: cells[2], count: count, defect: cells[4] == "defect", reason: cells[5])
        }
    }()

    @Test func theLedgerIsWellFormed() throws {
        #expect(Self.rows.count > 100)
        for row in Self.rows {
            #expect(!row.reason.isEmpty, "\(row.app) \(row.rule) \(row.path): no reason")
            #expect(row.defect == (row.count > 0), "\(row.app) \(row.rule) \(row.path): defects are counted, fixed false findings are 0")
        }
    }

    @Test(arguments: CorpusTests.apps)
    func everyErrorAndWarningIsJudged(_ app: String) throws {
        let found = try CorpusTests.diagnostics(app).filter { ($0["severity"] as? String) != "info" }
        var counts: [Int: Int] = [:]
        for d in found {
            let rule = d["rule"] as? String ?? ""
            let path = d["path"] as? String ?? ""
            // A row names what the finding is about: the file it is shown on, or (for a missing
            // file or a folder, shown on the file that declares it) the first related path.
            let index = Self.rows.firstIndex { row in CorpusTests.locations(of: d).contains { row.matches(app: app, rule: rule, path: $0) }
            }
            guard let index else {
                Issue.record("\(app): \(rule) at \(path) is not in docs/accuracy/ledger.tsv: judge it (\(d["message"] ?? ""))")
                continue
            }
            #expect(
                Self.rows[index].defect, "\(app): \(rule) at \(path) is judged NOT a defect (\(Self.rows[index].reason)) but is reported")
            counts[index, default: 0] += 1
        }
        for (i, row) in Self.rows.enumerated() where row.app == app && row.defect {
            #expect(
                counts[i, default: 0] == row.count,
                "\(app): \(row.rule) at \(row.path): ledger says \(row.count), reported \(counts[i, default: 0])")
        }
    }
}
