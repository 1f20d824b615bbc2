import Foundation
import ReswatchProtocol
import TestSupport
import Testing

/// What the real `reswatch lsp` logs: to the editor with `window/logMessage` and, the same lines,
/// to `$XDG_STATE_HOME/reswatch/lsp.log` (0600 in a 0700 folder, bounded by rotation).
@Suite(.serialized) struct LSPLogTests {
    static func logMessages(_ lsp: LSPClient) -> [String] {
        lsp.seen.filter { $0["method"]?.string == "window/logMessage" }.compactMap { $0["params"]?["message"]?.string }
    }

    @Test func theSessionIsLoggedToTheEditorAndTheFile() throws {
        let project = try LSPProtocolTests.project()
        let state = try TempTree()
        let daemon = try DaemonHarness(roots: [])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state.path
        let lsp = try LSPClient(arguments: ["--socket", daemon.socket, "--no-start-daemon"], environment: environment)
        _ = try #require(lsp.start(folders: [project.path]))
        let watching = lsp.wait {
            $0["method"]?.string == "window/logMessage" && $0["params"]?["message"]?.string?.hasPrefix("watching ") == true
        }
        let said = try #require(watching?["params"]?["message"]?.string)
        #expect(said.hasPrefix("watching \(project.path): ") && !said.contains(": 0 findings"), "the scan's findings are in hand: \(said)")
        let first = try #require(Self.logMessages(lsp).first)
        #expect(first.contains("language server (pid ") && first.contains("daemon socket \(daemon.socket)"))
        #expect(first.contains("log \(state.path)/reswatch/lsp.log"))

        _ = lsp.response(to: lsp.request("shutdown", .null))
        lsp.notify("exit")
        #expect(lsp.exitStatus() == 0)
        let file = state.path + "/reswatch/lsp.log"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("info: \(first)"), "\(text)")
        #expect(text.contains("info: \(said)"))
        #expect(text.contains("reswatch-lsp[\(lsp.process.processIdentifier)] info: exit (after shutdown)"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        let folderMode = try #require(
            try FileManager.default.attributesOfItem(atPath: state.path + "/reswatch")[.posixPermissions] as? Int)
        #expect(mode == 0o600 && folderMode == 0o700)
    }

    @Test func aLongLogIsRotatedWhenTheServerStarts() throws {
        let state = try TempTree()
        try FileManager.default.createDirectory(atPath: state.path + "/reswatch", withIntermediateDirectories: true)
        let old = Data(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1)
        try old.write(to: URL(fileURLWithPath: state.path + "/reswatch/lsp.log"))
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state.path
        let lsp = try LSPClient(arguments: ["--socket", "/nonexistent/s.sock", "--no-start-daemon"], environment: environment)
        _ = try #require(lsp.start(folders: [state.path]))
        #expect(lsp.wait { $0["method"]?.string == "window/showMessage" } != nil)
        let rotated = try Data(contentsOf: URL(fileURLWithPath: state.path + "/reswatch/lsp.log.1"))
        let current = try String(contentsOfFile: state.path + "/reswatch/lsp.log", encoding: .utf8)
        #expect(rotated == old)
        #expect(current.contains("error: reswatch: no daemon answers at /nonexistent/s.sock"), "\(current)")
    }

    @Test func aLogThatCannotBeOpenedIsSaidAndTheServerCarriesOn() throws {
        let state = try TempTree(["not-a-folder": .text("")])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state.path + "/not-a-folder"
        let lsp = try LSPClient(arguments: ["--socket", "/nonexistent/s.sock", "--no-start-daemon"], environment: environment)
        let reply = try #require(lsp.start(folders: [state.path]))
        #expect(reply["result"]?["serverInfo"] != nil)
        let started = lsp.wait {
            $0["method"]?.string == "window/logMessage" && $0["params"]?["message"]?.string?.hasSuffix("log none") == true
        }
        #expect(started != nil, "the session's first line says there is no log file")
        let warning = lsp.seen.first { $0["params"]?["message"]?.string?.contains("cannot open the language server's log") == true }
        #expect(warning?["method"]?.string == "window/showMessage" && warning?["params"]?["type"]?.int == 2, "\(lsp.seen)")
    }

    /// A FIFO where the log goes would block the open, and the editor with it: it is refused and said.
    @Test func aFIFOInPlaceOfTheLogIsNotOpened() throws {
        let state = try TempTree()
        try FileManager.default.createDirectory(atPath: state.path + "/reswatch", withIntermediateDirectories: true)
        #expect(mkfifo(state.path + "/reswatch/lsp.log", 0o600) == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state.path
        let lsp = try LSPClient(arguments: ["--socket", "/nonexistent/s.sock", "--no-start-daemon"], environment: environment)
        let reply = try #require(lsp.start(folders: [state.path]), "the server answers initialize: the open did not block")
        #expect(reply["result"]?["serverInfo"] != nil)
        let warning = lsp.wait { $0["params"]?["message"]?.string?.contains("lsp.log is not a regular file") == true }
        #expect(warning?["params"]?["type"]?.int == 2, "\(lsp.seen)")
    }
}
