import Foundation
import TestSupport
import Testing

/// `reswatch lsp` works whatever its standard input and output are: a pipe (an editor), a file,
/// /dev/null. epoll refuses files and /dev/null, so those go through a socket pair (issue 29).
@Suite struct LSPStdioTests {
    /// initialize, initialized, shutdown, exit: a whole session, framed.
    static func session() throws -> Data {
        var out = Data()
        for message in [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#, #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#, #"{"jsonrpc":"2.0","method":"exit"}"#,
        ] {
            out += Data("Content-Length: \(message.utf8.count)\r\n\r\n\(message)".utf8)
        }
        return out
    }

    func run(stdout target: String) throws -> Int32 {
        let dir = try TempTree()
        try Self.session().write(to: URL(fileURLWithPath: dir.path + "/in"))
        let result = try runCommand(
            "/bin/sh", ["-c", "\"$0\" lsp --no-daemon < \"$1\" > \"$2\"", Repo.binary, dir.path + "/in", target],
            environment: ["XDG_RUNTIME_DIR": dir.path, "XDG_STATE_HOME": dir.path + "/state"])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.status
    }

    @Test func aFileForInputAndOutput() throws {
        let dir = try TempTree()
        #expect(try run(stdout: dir.path + "/out") == 0)
        let out = try String(contentsOfFile: dir.path + "/out", encoding: .utf8)
        #expect(out.contains(#""id":1"#) && out.contains(#""serverInfo""#), "the initialize reply: \(out)")
        #expect(out.contains(#""id":2"#), "the shutdown reply")
    }

    @Test func devNullForOutput() throws {
        #expect(try run(stdout: "/dev/null") == 0)
    }
}
