import Foundation
import TestSupport
import Testing

/// Two rules written on one line (a YAML flow list) are two rules: each runs on its own subjects.
/// A rule was named by "file:line", so the second was taken for the first and never ran, and a
/// broken Info.plist passed with "no problems".
@Suite struct FlowListModuleTests {
    @Test(arguments: [
        "rules: [{kind: catalog-names}, {kind: plist-syntax}]\n",
        "rules: [{kind: plist-syntax}, {kind: catalog-names}]\n",
        "rules:\n  - {kind: catalog-names}\n  - {kind: plist-syntax}\n",
    ])
    func everyRuleOnALineRuns(_ rules: String) throws {
        let modules = try TempTree(["only.yaml": .text("module: only\n" + rules)])
        let tree = try TempTree([
            "App/Info.plist": .text("<plist><dict><key>a</key>"),
            "App/A.xcassets/Logo.imageset/Contents.json": .text(#"{"images":[]}"#),
            "App/A.xcassets/Brand/Logo.imageset/Contents.json": .text(#"{"images":[]}"#),
        ])
        var env = ProcessInfo.processInfo.environment
        env["RESWATCH_SHIPPED_RULES"] = modules.path
        let result = try runCommand(Repo.binary, ["check", "--no-color", tree.path + "/App"], environment: env)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[plist.parse-error]"), "plist-syntax ran: \(result.stdout)")
        #expect(result.stdout.contains("[catalog.duplicate-name]"), "catalog-names ran: \(result.stdout)")
    }
}
