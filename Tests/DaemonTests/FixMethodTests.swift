import Foundation
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

/// The socket's `fix`, against the real daemon: a plan changes nothing; `apply` repairs, the
/// daemon re-validates the changed files as after any change (its state equals a cold check), and
/// bad params get an error, the daemon running on.
@Suite struct FixMethodTests {
    static func copyOfTheExample() throws -> TempTree {
        let tree = try TempTree()
        #expect(try runCommand("/bin/cp", ["-a", Repo.root + "/Examples/SampleApp/.", tree.path]).status == 0)
        return tree
    }

    @Test func planThenApplyAndTheDaemonFollows() throws {
        let tree = try Self.copyOfTheExample()
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        let client = try daemon.client()
        let plan = try client.call(FixRequest.self, FixParams(path: tree.path))
        #expect(plan.repairs.count == 4 && !plan.applied && plan.journal == nil)
        #expect(plan.repairs.map(\.rule).sorted() == ["icon.file-missing", "icon.marketing-alpha", "icon.size-mismatch", "image.not-png"])
        #expect(plan.left.contains { $0.rule == "plist.orientations" && $0.reason.hasPrefix("your choice") })
        #expect(try daemon.diagnosticLines().contains { $0.hasPrefix("image.not-png") }, "a plan changes nothing")
        // `line`: one finding, as an editor's quick fix asks (the missing file at Contents.json:97).
        let contents = tree.path + "/SampleApp/Assets.xcassets/AppIcon.appiconset/Contents.json"
        #expect(try client.call(FixRequest.self, FixParams(path: contents, line: 97)).repairs.map(\.rule) == ["icon.file-missing"])
        #expect(try client.call(FixRequest.self, FixParams(path: contents, line: 96)).repairs.isEmpty, "no finding on that line")
        let only = try client.call(FixRequest.self, FixParams(path: tree.path, apply: true, only: ["image.not-png"]))
        #expect(only.applied && only.repairs.count == 1 && only.journal?.hasPrefix(".reswatch/fix/") == true)
        #expect(
            only.repairs.first?.changes.contains(
                .init(
                    kind: "rename", path: "SampleApp/Assets.xcassets/Logo.imageset/logo.png",
                    to: "SampleApp/Assets.xcassets/Logo.imageset/logo.jpg")) == true)
        try daemon.sync()
        let lines = try daemon.diagnosticLines()
        #expect(!lines.contains { $0.hasPrefix("image.not-png") } && lines.contains { $0.hasPrefix("icon.size-mismatch") })
        #expect(try daemon.diagnosticLines() == (try coldCheckLines(tree.path)), "the daemon re-validated the fix like any change")
    }

    @Test func badParamsAreErrorsAndTheDaemonRunsOn() throws {
        let tree = try Self.copyOfTheExample()
        let daemon = try DaemonHarness(roots: [tree.path])
        defer { _ = daemon.stop() }
        let client = try daemon.client()
        for (params, code) in [
            (JSONValue.object(["path": .integer(3)]), -32602), (.object(["path": .string("/nowhere/at/all")]), -32002),
            (.object(["path": .string(tree.path), "only": .array([.string("icon.nope")])]), -32602),
            (.object(["path": .string(tree.path), "background": .string("pink")]), -32602),
            (.object(["path": .string(tree.path), "apply": .string("yes")]), -32602), (.object([:]), -32602),
            (.object(["path": .string(tree.path), "line": .integer(0)]), -32602),
            (.object(["path": .string(tree.path), "line": .integer(1 << 40)]), -32602),
            (.object(["path": .string(tree.path), "single_size": .string("yes")]), -32602),
        ] {
            do {
                _ = try client.call("fix", params)
                Issue.record("\(params) was accepted")
            } catch {
                guard case .rpc(let rpc) = error else { Issue.record("\(error)"); continue }
                #expect(rpc.code == code, "\(params): \(rpc)")
            }
        }
        #expect(try daemon.call("status")["roots"]?.array?.count == 1, "still running")
        #expect(FixRequest.role == .admin, "it writes files: admin only, as recheck")
    }
}
