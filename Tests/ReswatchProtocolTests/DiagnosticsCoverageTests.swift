import Findings
import ReswatchProtocol
import Testing

/// `reswatch diagnostics` says what its reply does not cover (never a quiet "0 diagnostics"):
/// the gaps read from `status`, for the roots the asked path touches.
@Suite struct DiagnosticsCoverageTests {
    static func root(_ path: String, _ state: RootStatus.State, judged: Int? = 5, reason: String? = nil) -> RootStatus {
        RootStatus(
            path: path, state: state, files: 10, projects: 1, errors: 0, warnings: 0, infos: 0, lastChange: nil, recrawls: 0,
            reason: reason, judged: state == .scanning ? nil : judged)
    }

    static func status(_ roots: [RootStatus], ruleErrors: [ModuleError] = []) -> StatusResult {
        StatusResult(
            roots: roots, generation: 1, uptimeSeconds: 1, ruleErrors: ruleErrors, watches: 1, settleMilliseconds: 20, socket: "/s")
    }

    @Test func aScanningRootInScopeMakesTheReplyIncomplete() {
        let status = Self.status([Self.root("/w/a", .ready), Self.root("/w/b", .scanning)])
        let all = DiagnosticsCoverage(status: status, path: nil)
        #expect(all.incomplete.count == 1 && all.incomplete[0].hasPrefix("/w/b is still being scanned"))
        #expect(DiagnosticsCoverage(status: status, path: "/w/b/App/Info.plist").incomplete.count == 1)
        #expect(DiagnosticsCoverage(status: status, path: "/w").incomplete.count == 1, "a folder above the root holds it")
        let other = DiagnosticsCoverage(status: status, path: "/w/a/App")
        #expect(other.incomplete.isEmpty && other.notes.isEmpty, "a path in the ready root is complete")
        #expect(DiagnosticsCoverage(status: status, path: "/w/bb").incomplete.isEmpty, "whole path segments: /w/bb is not in /w/b")
    }

    @Test func aRuleModuleThatDidNotLoadMakesEveryReplyIncomplete() {
        let error = ModuleError(file: "/etc/reswatch/rules/team.yaml", line: 4, message: "YAML syntax error")
        let coverage = DiagnosticsCoverage(status: Self.status([Self.root("/w/a", .ready)], ruleErrors: [error]), path: "/w/a")
        #expect(coverage.incomplete == ["a rule module did not load: /etc/reswatch/rules/team.yaml:4: YAML syntax error"])
    }

    @Test func noRootIsIncompleteDegradedAndEmptyRootsAreNotes() {
        #expect(DiagnosticsCoverage(status: Self.status([]), path: nil).incomplete == ["the daemon watches no root"])
        let status = Self.status([
            Self.root("/w/a", .degraded, reason: "the inotify watch limit is reached"),
            Self.root("/w/e", .ready, judged: 0, reason: "nothing to check: 3 files"),
        ])
        let coverage = DiagnosticsCoverage(status: status, path: nil)
        #expect(coverage.incomplete.isEmpty)
        #expect(
            coverage.notes == [
                "/w/a is degraded (the inotify watch limit is reached): its findings may be late", "/w/e: nothing to check: 3 files",
            ])
    }

    @Test func pathsReasonsAndModuleErrorsComeEscaped() {
        let error = ModuleError(file: "/r/x\u{1B}[2J.yaml", line: 1, message: "bad")
        let status = Self.status(
            [Self.root("/w/a\nb", .scanning), Self.root("/w/c", .degraded, reason: "cannot read d\re")], ruleErrors: [error])
        let coverage = DiagnosticsCoverage(status: status, path: nil)
        #expect(coverage.incomplete.first?.hasPrefix("/w/a\\nb is still being scanned") == true, "\(coverage.incomplete)")
        #expect(coverage.incomplete.last == "a rule module did not load: /r/x\\x1B[2J.yaml:1: bad")
        #expect(coverage.notes == ["/w/c is degraded (cannot read d\\re): its findings may be late"])
    }
}
