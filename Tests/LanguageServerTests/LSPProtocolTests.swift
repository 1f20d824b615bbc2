import Foundation
import ImageFacts
import ReswatchProtocol
import RuleEngine
import TestSupport
import Testing

/// The real `reswatch lsp` driven by a scripted client: diagnostics for every file of two
/// folders, cleared when fixed; framing errors; the shutdown/exit handshake.
@Suite(.serialized) struct LSPProtocolTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"

    static func project(width: Int = 1000) throws -> TempTree {
        try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "/Contents.json": .text(
                "{\n  \"images\" : [\n    {\n      \"filename\" : \"icon.png\",\n      \"idiom\" : \"universal\",\n      \"platform\" : \"ios\",\n      \"size\" : \"1024x1024\"\n    }\n  ]\n}\n"
            ),
            set + "/icon.png": .png(PNGSpec(width: width, height: 1024)),
        ])
    }

    static func isPublish(_ m: JSONValue, _ path: String) -> Bool {
        m["method"]?.string == "textDocument/publishDiagnostics" && m["params"]?["uri"]?.string == "file://" + path
    }

    @Test func twoFoldersThenAFixClearsTheFile() throws {
        let a = try Self.project()
        let b = try Self.project()
        let daemon = try DaemonHarness(roots: [])
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket, "--no-start-daemon"])
        let reply = try #require(lsp.start(folders: [a.path, b.path]))
        #expect(reply["result"]?["capabilities"]?["codeActionProvider"] != nil)
        #expect(reply["result"]?["serverInfo"]?["name"]?.string == "reswatch")

        let iconA = a.path + "/" + Self.set + "/icon.png"
        let iconB = b.path + "/" + Self.set + "/icon.png"
        let publishedA = try #require(lsp.wait { Self.isPublish($0, iconA) }, "diagnostics for a file nobody opened")
        #expect(lsp.seen.contains { Self.isPublish($0, iconB) } || lsp.wait { Self.isPublish($0, iconB) } != nil, "the second folder too")
        // The link to the daemon runs on a thread of its own, named (Foundation's Thread.name, set
        // before start, named nothing: ThreadName).
        #expect(threadNames(of: lsp.process.processIdentifier).contains("rw-lsp-daemon"))
        let d = try #require(publishedA["params"]?["diagnostics"]?.array?.first)
        #expect(d["code"]?.string == "icon.size-mismatch" && d["severity"]?.int == 1 && d["source"]?.string == "reswatch")
        #expect(d["codeDescription"]?["href"]?.string?.hasSuffix("rules.md#iconsize-mismatch") == true)
        #expect(d["message"]?.string?.contains("1000x1024") == true)

        try a.write([Self.set + "/icon.png": .png(PNGSpec(width: 1024, height: 1024))])  // fixed on disk
        // A publish of the old findings may still be queued from before the fix (the snapshot and
        // the first notification can both carry them): the fix must end in an empty one.
        let cleared = lsp.wait { Self.isPublish($0, iconA) && $0["params"]?["diagnostics"]?.array?.isEmpty == true }
        #expect(cleared != nil, "the fixed file's diagnostic is cleared")
        let stale = lsp.wait(timeoutSeconds: 1) { Self.isPublish($0, iconA) && $0["params"]?["diagnostics"]?.array?.isEmpty == false }
        #expect(stale == nil, "no stale publish after the fix")

        let shutdown = lsp.request("shutdown", .null)
        #expect(lsp.response(to: shutdown)?["result"] == .null)
        lsp.notify("exit")
        #expect(lsp.exitStatus() == 0)
        // The daemon carries on for other editors.
        #expect(try daemon.call("watch/list")["roots"]?.array?.count == 2)
    }

    /// A header without Content-Length, or with a length that is not a number: the stream cannot
    /// be followed, so the server says why (a JSON-RPC parse error) and exits 1.
    @Test(arguments: ["X-Other: 1\r\n\r\n{}", "Content-Length: ten\r\n\r\n{}"])
    func framingErrorsAreSaidAndEndTheServer(_ bytes: String) throws {
        let lsp = try LSPClient(arguments: ["--no-start-daemon", "--socket", "/nonexistent/s.sock"])
        lsp.sendRaw(Array(bytes.utf8))
        let error = try #require(lsp.wait { $0["error"] != nil })
        #expect(error["error"]?["code"]?.int == -32700 && error["id"] == .null)
        #expect(error["error"]?["message"]?.string?.contains("Content-Length") == true)
        #expect(lsp.exitStatus() == 1)
    }

    /// A framed body that is not JSON is answered and the server carries on; requests before
    /// initialize are refused; exit without shutdown is status 1.
    @Test func badBodiesAndTheLifecycle() throws {
        let lsp = try LSPClient(arguments: ["--no-start-daemon", "--socket", "/nonexistent/s.sock"])
        lsp.sendRaw(Array("Content-Length: 5\r\n\r\nnope!".utf8))
        #expect(lsp.wait { $0["error"] != nil }?["error"]?["code"]?.int == -32700)
        let early = lsp.request("textDocument/codeAction")
        #expect(lsp.response(to: early)?["error"]?["code"]?.int == -32002)
        let tree = try Self.project()
        #expect(lsp.start(folders: [tree.path])?["result"] != nil)
        let message = lsp.wait { $0["method"]?.string == "window/showMessage" }
        #expect(message?["params"]?["type"]?.int == 1, "no daemon and none may be started: said, as an error")
        #expect(message?["params"]?["message"]?.string?.contains("nothing is checked") == true)
        let unknown = lsp.request("textDocument/hover")
        #expect(lsp.response(to: unknown)?["error"]?["code"]?.int == -32601)
        lsp.notify("exit")
        #expect(lsp.exitStatus() == 1, "exit without shutdown")
    }

    @Test func endOfInputAfterShutdownIsACleanExit() throws {
        let lsp = try LSPClient(arguments: ["--no-start-daemon", "--socket", "/nonexistent/s.sock"])
        _ = lsp.start(folders: [])
        let id = lsp.request("shutdown", .null)
        #expect(lsp.response(to: id) != nil)
        lsp.closeInput()
        #expect(lsp.exitStatus() == 0)
    }

    /// With no daemon at the socket, the server starts one (it outlives the editor).
    @Test func startsADaemonWhenNoneAnswers() throws {
        let tree = try Self.project()
        let dir = try TempTree()
        let socket = dir.path + "/d.sock"
        let lsp = try LSPClient(arguments: ["--socket", socket])
        _ = lsp.start(folders: [tree.path])
        let icon = tree.path + "/" + Self.set + "/icon.png"
        #expect(lsp.wait(timeoutSeconds: 30) { Self.isPublish($0, icon) } != nil)
        lsp.notify("exit")
        _ = lsp.exitStatus()
        let client = try ReswatchClient(path: socket)
        #expect(try client.call(WatchListRequest.self).roots == [tree.path], "the daemon it started carries on")
        _ = try client.call(ShutdownRequest.self)
    }

    /// --no-daemon: the engine and its watcher in the server's own process.
    @Test func inProcessEngine() throws {
        let tree = try Self.project()
        let lsp = try LSPClient(arguments: ["--no-daemon"])
        _ = lsp.start(folders: [tree.path])
        let icon = tree.path + "/" + Self.set + "/icon.png"
        let published = lsp.wait { Self.isPublish($0, icon) }
        #expect(published?["params"]?["diagnostics"]?.array?.first?["code"]?.string == "icon.size-mismatch")
        try tree.write([Self.set + "/icon.png": .png(PNGSpec(width: 1024, height: 1024))])
        // Under load the first scan's findings may be published twice before the fix is seen: the
        // fix must end in an empty publish, and no stale one may follow it.
        let isEmpty = { (m: JSONValue) in m["params"]?["diagnostics"]?.array?.isEmpty == true }
        #expect(lsp.wait { Self.isPublish($0, icon) && isEmpty($0) } != nil, "the fixed file's diagnostic is cleared")
        #expect(lsp.wait(timeoutSeconds: 1) { Self.isPublish($0, icon) && !isEmpty($0) } == nil, "no stale publish after the fix")
        let id = lsp.request("shutdown", .null)
        _ = lsp.response(to: id)
        lsp.notify("exit")
        #expect(lsp.exitStatus() == 0)
    }

    /// A quick fix through the protocol: the unassigned file's action names its slot, and its
    /// edit is for Contents.json.
    @Test func codeActionForAnUnassignedFile() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            Self.set + "/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\"}]}"),
            Self.set + "/Icon.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        let daemon = try DaemonHarness(roots: [tree.path])
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket])
        _ = lsp.start(folders: [tree.path])
        let icon = tree.path + "/" + Self.set + "/Icon.png"
        let published = try #require(lsp.wait { Self.isPublish($0, icon) })
        let unassigned = try #require(published["params"]?["diagnostics"]?.array?.first { $0["code"]?.string == "icon.unassigned" })
        let id = lsp.request(
            "textDocument/codeAction",
            .object([
                "textDocument": .object(["uri": .string("file://" + icon)]), "range": unassigned["range"] ?? .null,
                "context": .object(["diagnostics": .array([unassigned])]),
            ]))
        let actions = try #require(lsp.response(to: id)?["result"]?.array)
        #expect(actions.first?["title"]?.string == "Assign Icon.png to the universal 1024x1024 @1x slot in Contents.json")
        #expect(actions.first?["kind"]?.string == "quickfix")
        #expect(actions.first?["edit"]?["changes"]?["file://" + tree.path + "/" + Self.set + "/Contents.json"]?.array?.count == 1)
    }

    /// An image repair over the protocol: offered on the PNG and on its Contents.json entry, as the
    /// `reswatch.fix` command; executing it has the daemon remake the icon, the editor is told how
    /// to undo it, and the finding goes. Bad arguments are refused.
    @Test func anImageRepairIsOfferedOnEveryFileItTouchesAndTheDaemonMakesIt() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            Self.set + "/Contents.json": .text(
                "{\n  \"images\" : [\n    {\n      \"filename\" : \"a.png\",\n      \"idiom\" : \"iphone\",\n      \"scale\" : \"2x\",\n      \"size\" : \"60x60\"\n    },\n    {\n      \"filename\" : \"m.png\",\n      \"idiom\" : \"ios-marketing\",\n      \"scale\" : \"1x\",\n      \"size\" : \"1024x1024\"\n    }\n  ]\n}\n"
            ),
            Self.set + "/a.png": .png(PNGSpec(width: 121, height: 120)),
            Self.set + "/m.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        let daemon = try DaemonHarness(roots: [tree.path])
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket])
        let capabilities = lsp.start(folders: [tree.path])?["result"]?["capabilities"]
        #expect(capabilities?["executeCommandProvider"]?["commands"]?.array?.first?.string == "reswatch.fix")
        let icon = tree.path + "/" + Self.set + "/a.png"
        let contents = tree.path + "/" + Self.set + "/Contents.json"
        let published = try #require(lsp.wait { Self.isPublish($0, icon) })
        let mismatch = try #require(published["params"]?["diagnostics"]?.array?.first { $0["code"]?.string == "icon.size-mismatch" })
        func actions(_ uri: String, line: Int, _ diagnostics: [JSONValue]) -> [JSONValue] {
            let at: JSONValue = .object(["line": .integer(Int64(line)), "character": .integer(0)])
            let id = lsp.request(
                "textDocument/codeAction",
                .object([
                    "textDocument": .object(["uri": .string(uri)]), "range": .object(["start": at, "end": at]),
                    "context": .object(["diagnostics": .array(diagnostics)]),
                ]))
            return lsp.response(to: id)?["result"]?.array ?? []
        }
        let onImage = actions("file://" + icon, line: 0, [mismatch])
        let command = try #require(onImage.first?["command"])
        #expect(command["command"]?.string == "reswatch.fix" && onImage.first?["edit"] == nil, "\(onImage)")
        #expect(onImage.first?["title"]?.string?.contains("120x120") == true, "\(onImage)")
        // On Contents.json, at the entry that uses a.png (line 4), with no diagnostic of its own there.
        let onEntry = actions("file://" + contents, line: 3, [])
        #expect(onEntry.first?["command"] == command, "the same repair on the Contents.json entry: \(onEntry)")
        #expect(actions("file://" + contents, line: 9, []).isEmpty, "not on the other entry's lines")

        let bad = lsp.request(
            "workspace/executeCommand",
            .object([
                "command": .string("reswatch.fix"),
                "arguments": .array([.object(["path": .string("/etc/passwd"), "rule": .string("icon.size-mismatch")])]),
            ]))
        #expect(lsp.response(to: bad)?["error"]?["code"]?.int == -32602, "a path outside the workspace is refused")
        let stepsOut = lsp.request(
            "workspace/executeCommand",
            .object([
                "command": .string("reswatch.fix"),
                "arguments": .array([
                    .object(["path": .string(tree.path + "/../../etc/passwd"), "rule": .string("icon.size-mismatch")])
                ]),
            ]))
        #expect(lsp.response(to: stepsOut)?["error"]?["code"]?.int == -32602, "a path that steps out through .. is refused")
        // Asked twice (an editor asks at every cursor move): the same actions.
        #expect(actions("file://" + contents, line: 3, []) == onEntry)
        let unknown = lsp.request("workspace/executeCommand", .object(["command": .string("rm -rf")]))
        #expect(lsp.response(to: unknown)?["error"]?["code"]?.int == -32602)

        let run = lsp.request("workspace/executeCommand", .object(["command": command["command"]!, "arguments": command["arguments"]!]))
        let response = lsp.response(to: run, timeoutSeconds: 60)
        #expect(response?["error"] == nil && response?["result"] != nil, "\(String(describing: response))")
        let said = lsp.seen.last { $0["method"]?.string == "window/showMessage" }
        #expect(
            said?["params"]?["type"]?.int == 3 && said?["params"]?["message"]?.string?.contains("fix --undo") == true,
            "\(String(describing: said))")
        let png = try Data(contentsOf: URL(fileURLWithPath: icon))
        #expect(png[16..<24].elementsEqual([0, 0, 0, 120, 0, 0, 0, 120]), "a.png was remade at 120x120")
        let cleared = lsp.wait(timeoutSeconds: 30) { Self.isPublish($0, icon) && $0["params"]?["diagnostics"]?.array?.isEmpty == true }
        #expect(cleared != nil, "the daemon re-validated: the finding is gone")
    }

    /// The daemon goes away: the editor is told once and the findings are cleared (not left
    /// standing as if current); a new daemon at the socket knows no roots, so the folders are
    /// added again and the findings come back.
    @Test func aLostDaemonIsSaidAndAReplacementIsFollowed() throws {
        let tree = try Self.project()
        let dir = try TempTree()
        let socket = dir.path + "/d.sock"
        var daemon = try DaemonHarness(roots: [], socket: socket)
        let lsp = try LSPClient(arguments: ["--socket", socket, "--no-start-daemon"])
        let added = try Self.project()
        _ = lsp.start(folders: [tree.path])
        let icon = tree.path + "/" + Self.set + "/icon.png"
        let addedIcon = added.path + "/" + Self.set + "/icon.png"
        #expect(lsp.wait { Self.isPublish($0, icon) }?["params"]?["diagnostics"]?.array?.isEmpty == false)
        lsp.notify(
            "workspace/didChangeWorkspaceFolders",
            .object([
                "event": .object([
                    "added": .array([.object(["uri": .string("file://" + added.path), "name": .string("b")])]), "removed": .array([]),
                ])
            ]))
        #expect(lsp.wait { Self.isPublish($0, addedIcon) } != nil, "a folder added later is watched")

        #expect(daemon.stop() == 0)
        let lost = lsp.wait { $0["method"]?.string == "window/showMessage" }
        #expect(lost?["params"]?["type"]?.int == 1 && lost?["params"]?["message"]?.string?.contains("lost the daemon") == true)
        #expect(lsp.wait { Self.isPublish($0, icon) }?["params"]?["diagnostics"]?.array?.isEmpty == true, "cleared while lost")

        daemon = try DaemonHarness(roots: [], socket: socket)
        let back = lsp.wait(timeoutSeconds: 30) { Self.isPublish($0, addedIcon) && $0["params"]?["diagnostics"]?.array?.isEmpty == false }
        #expect(back != nil, "both folders are added to the new daemon, the later one too")
        #expect(try daemon.call("watch/list")["roots"]?.array?.count == 2)
        let messages = lsp.seen.filter { $0["method"]?.string == "window/showMessage" }
        #expect(messages.count == 1, "the loss is said once, not at every reconnect attempt: \(messages)")
    }

    /// A socket this user may not open: the editor is told so (not "no daemon"), and no second
    /// daemon is started over it.
    @Test(.enabled(if: getuid() == 0, "needs root to run the language server as another user"))
    func aSocketThisUserMayNotOpenIsSaid() throws {
        let dir = try TempTree()
        chmod(dir.path, 0o755)
        let socket = dir.path + "/d.sock"
        let daemon = try DaemonHarness(roots: [], socket: socket)
        chmod(socket, 0o600)
        let tree = try Self.project()
        chmod(tree.path, 0o755)
        let lsp = try LSPClient(
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"], arguments: ["--socket", socket])
        _ = lsp.start(folders: [tree.path])
        // (Another message may come first: this user cannot write the test's state folder for its log.)
        let message =
            lsp.wait { $0["method"]?.string == "window/showMessage" && $0["params"]?["type"]?.int == 1 }?["params"]?["message"]?.string
            ?? ""
        #expect(message.contains("not allowed to use this daemon's socket") && message.contains("Nothing is checked"), "\(message)")
        #expect(try daemon.call("watch/list")["roots"]?.array?.isEmpty == true, "the daemon there carries on untouched")
    }
}
