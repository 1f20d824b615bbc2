import Foundation
import ImageFacts
import ReswatchProtocol
import TestSupport
import Testing

/// Pull diagnostics from the real `reswatch lsp`: answers for a client that only pulls now and
/// then, the split between pull (open files) and push (the rest) for a client that pulls with
/// refresh, and an error, never an empty answer, for what is not checked.
@Suite(.serialized) struct LSPPullTests {
    static let pulling: JSONValue = .object([
        "textDocument": .object(["diagnostic": .object(["dynamicRegistration": .bool(false)])]),
        "workspace": .object(["diagnostics": .object(["refreshSupport": .bool(true)])]),
    ])

    static func pull(_ lsp: LSPClient, _ path: String, previous: String? = nil) -> JSONValue? {
        var params: [String: JSONValue] = ["textDocument": .object(["uri": .string("file://" + path)])]
        if let previous { params["previousResultId"] = .string(previous) }
        return lsp.response(to: lsp.request("textDocument/diagnostic", .object(params)))
    }

    static func codes(_ report: JSONValue?) -> [String] {
        (report?["result"]?["items"]?.array ?? []).compactMap { $0["code"]?.string }
    }

    @Test func aClientThatPullsGetsTheSameFindingsAndUnchangedWhenNothingChanged() throws {
        let project = try LSPProtocolTests.project()
        let outside = try TempTree(["Info.plist": .text("<plist/>")])
        let daemon = try DaemonHarness(roots: [])
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket, "--no-start-daemon"])
        let reply = try #require(lsp.start(folders: [project.path]))
        let provider = reply["result"]?["capabilities"]?["diagnosticProvider"]
        #expect(provider?["workspaceDiagnostics"] == .bool(true) && provider?["interFileDependencies"] == .bool(true))
        #expect(reply["result"]?["capabilities"]?["textDocumentSync"] == .integer(0), "no pull with refresh: no open/close needed")
        let icon = project.path + "/" + LSPProtocolTests.set + "/icon.png"
        #expect(lsp.wait { LSPProtocolTests.isPublish($0, icon) } != nil, "a client without pull still gets the push")

        let full = Self.pull(lsp, icon)
        #expect(full?["result"]?["kind"]?.string == "full" && Self.codes(full) == ["icon.size-mismatch"], "\(String(describing: full))")
        let resultID = try #require(full?["result"]?["resultId"]?.string)
        let again = Self.pull(lsp, icon, previous: resultID)
        #expect(again?["result"]?["kind"]?.string == "unchanged" && again?["result"]?["resultId"]?.string == resultID)
        let clean = Self.pull(lsp, project.path + "/" + LSPProtocolTests.set + "/Contents.json")
        #expect(clean?["result"]?["kind"]?.string == "full" && clean?["result"]?["items"]?.array?.isEmpty == true)

        // Outside the folders: not checked, and said so.
        let refused = Self.pull(lsp, outside.path + "/Info.plist")
        #expect(refused?["error"]?["code"]?.int == -32803, "\(String(describing: refused))")
        #expect(refused?["error"]?["message"]?.string?.contains("outside the workspace folders") == true)

        // The whole workspace: the icon's findings, and an unchanged report where the id is current.
        let workspace = lsp.response(
            to: lsp.request(
                "workspace/diagnostic",
                .object(["previousResultIds": .array([.object(["uri": .string("file://" + icon), "value": .string(resultID)])])])))
        let items = workspace?["result"]?["items"]?.array ?? []
        let iconItem = items.first { $0["uri"]?.string == "file://" + icon }
        #expect(iconItem?["kind"]?.string == "unchanged" && iconItem?["resultId"]?.string == resultID, "\(items)")
        #expect(items.allSatisfy { $0["version"] == .null && $0["kind"] != nil })
        let fresh = lsp.response(to: lsp.request("workspace/diagnostic", .object(["previousResultIds": .array([])])))
        let freshIcon = fresh?["result"]?["items"]?.array?.first { $0["uri"]?.string == "file://" + icon }
        #expect(Self.codes(.object(["result": freshIcon ?? .null])) == ["icon.size-mismatch"])
    }

    @Test func openFilesGoByPullTheOthersByPushAndEachFindingIsShownOnce() throws {
        let project = try LSPProtocolTests.project()
        let daemon = try DaemonHarness(roots: [])
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket, "--no-start-daemon"])
        let reply = try #require(lsp.start(folders: [project.path], capabilities: Self.pulling))
        #expect(reply["result"]?["capabilities"]?["textDocumentSync"]?["openClose"] == .bool(true))
        let icon = project.path + "/" + LSPProtocolTests.set + "/icon.png"
        let uri = JSONValue.string("file://" + icon)
        #expect(lsp.wait { LSPProtocolTests.isPublish($0, icon) } != nil, "a file nobody opened is pushed")

        // Opened: its pushed findings are cleared, and a pull gives them.
        lsp.notify(
            "textDocument/didOpen",
            .object(["textDocument": .object(["uri": uri, "languageId": .string("png"), "version": .integer(1), "text": .string("")])]))
        let cleared = lsp.wait { LSPProtocolTests.isPublish($0, icon) && $0["params"]?["diagnostics"]?.array?.isEmpty == true }
        #expect(cleared != nil, "the open file leaves the push")
        let before = Self.pull(lsp, icon)
        #expect(Self.codes(before) == ["icon.size-mismatch"])

        // Fixed on disk: the client is asked to pull again, and the pull is empty; no push for it.
        try project.write([LSPProtocolTests.set + "/icon.png": .png(PNGSpec(width: 1024, height: 1024))])
        let refresh = lsp.wait { $0["method"]?.string == "workspace/diagnostic/refresh" && $0["id"] != nil }
        #expect(refresh != nil, "workspace/diagnostic/refresh")
        var after = Self.pull(lsp, icon, previous: before?["result"]?["resultId"]?.string)
        // The write is in place: the daemon may see it half done (an empty file is image.not-png,
        // a refresh of its own) before its end is seen and asks for another pull. Pulled at each
        // refresh until the file as written is judged; a finding that stays fails below.
        func judged(_ report: JSONValue?) -> Bool { report?["result"]?["kind"]?.string == "full" && Self.codes(report).isEmpty }
        for _ in 0..<5 where !judged(after) {
            guard lsp.wait(for: { $0["method"]?.string == "workspace/diagnostic/refresh" && $0["id"] != nil }) != nil else { break }
            let latest = after?["result"]?["kind"]?.string == "full" ? after?["result"]?["resultId"]?.string : nil
            after = Self.pull(lsp, icon, previous: latest ?? before?["result"]?["resultId"]?.string)
        }
        #expect(judged(after), "\(String(describing: after))")
        let pushed = lsp.wait(timeoutSeconds: 1) {
            LSPProtocolTests.isPublish($0, icon) && $0["params"]?["diagnostics"]?.array?.isEmpty == false
        }
        #expect(pushed == nil, "an open file's findings are not pushed as well")

        // Closed and broken again: back to the push.
        lsp.notify("textDocument/didClose", .object(["textDocument": .object(["uri": uri])]))
        try project.write([LSPProtocolTests.set + "/icon.png": .png(PNGSpec(width: 1000, height: 1024))])
        let back = lsp.wait { LSPProtocolTests.isPublish($0, icon) && $0["params"]?["diagnostics"]?.array?.isEmpty == false }
        #expect(back != nil, "a closed file's findings are pushed again")
    }

    @Test func aPullWithNoDaemonIsAnErrorThatSaysWhyNeverAnEmptyAnswer() throws {
        let project = try LSPProtocolTests.project()
        let lsp = try LSPClient(arguments: ["--socket", "/nonexistent/reswatch.sock", "--no-start-daemon"])
        _ = try #require(lsp.start(folders: [project.path], capabilities: Self.pulling))
        #expect(lsp.wait { $0["method"]?.string == "window/showMessage" } != nil)
        let icon = project.path + "/" + LSPProtocolTests.set + "/icon.png"
        let answer = Self.pull(lsp, icon)
        #expect(answer?["result"] == nil && answer?["error"]?["code"]?.int == -32802, "\(String(describing: answer))")
        #expect(answer?["error"]?["message"]?.string?.contains("no daemon answers at /nonexistent/reswatch.sock") == true)
        let workspace = lsp.response(to: lsp.request("workspace/diagnostic", .object(["previousResultIds": .array([])])))
        #expect(workspace?["error"]?["code"]?.int == -32802)
    }

    /// Nested workspace folders (a project and a package inside it), inner first: the outer is
    /// watched, the inner is covered by it, and nothing says it cannot be watched.
    @Test func nestedFoldersAreCoveredByTheOuterOne() throws {
        let project = try LSPProtocolTests.project()
        let inner = project.path + "/App"
        let daemon = try DaemonHarness(roots: [])
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket, "--no-start-daemon"])
        _ = try #require(lsp.start(folders: [inner, project.path], capabilities: Self.pulling))
        let watching = lsp.wait { $0["params"]?["message"]?.string?.hasPrefix("watching ") == true }
        #expect(watching != nil)
        #expect(!lsp.seen.contains { $0["params"]?["message"]?.string?.contains("cannot watch") == true }, "\(lsp.seen)")
        #expect(try daemon.call("watch/list")["roots"]?.array == [.string(project.path)])
        let icon = project.path + "/" + LSPProtocolTests.set + "/icon.png"
        #expect(Self.codes(Self.pull(lsp, icon)) == ["icon.size-mismatch"])
    }
}
