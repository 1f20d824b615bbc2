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

    /// Standard input and output both one end of a Unix socket pair (as an editor that talks to
    /// its servers over sockets, or `socat` in front of it, gives them).
    @Test func aSocketForInputAndOutput() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let dir = try TempTree()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repo.binary)
        process.arguments = ["lsp", "--no-daemon"]
        process.environment = ["XDG_RUNTIME_DIR": dir.path, "XDG_STATE_HOME": dir.path + "/state", "PATH": "/usr/bin:/bin"]
        let childEnd = FileHandle(fileDescriptor: pair[1], closeOnDealloc: false)
        process.standardInput = childEnd
        process.standardOutput = childEnd
        process.standardError = FileHandle.nullDevice
        try process.run()
        close(pair[1])
        // A server that never ends its output fails the read after 60 s instead of hanging the suite.
        var limit = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let ours = FileHandle(fileDescriptor: pair[0], closeOnDealloc: true)
        try ours.write(contentsOf: Self.session())
        let out = String(decoding: try ours.readToEnd() ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(out.contains(#""id":1"#) && out.contains(#""serverInfo""#), "the initialize reply: \(out)")
        #expect(out.contains(#""id":2"#), "the shutdown reply")
    }
}
