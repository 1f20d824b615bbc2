import Foundation
import ReswatchProtocol

/// A scripted LSP client over the real `reswatch lsp` process's stdin/stdout
/// (Content-Length framing), for protocol tests.
public final class LSPClient {
    public let process = Process()
    let stdin = Pipe()
    let stdout = Pipe()
    lazy var reader = PipeReader(stdout.fileHandleForReading.fileDescriptor)
    var nextID = 100
    /// Messages read while waiting for something else.
    public private(set) var seen: [JSONValue] = []
    /// The XDG_STATE_HOME made for this client (kept for its lifetime), when the test gave none.
    public private(set) var stateFolder: TempTree?

    /// `launcher`: a command that runs the server (setpriv, to be another user).
    public init(launcher: [String] = [], arguments: [String], environment: [String: String]? = nil) throws {
        let command = launcher + [Repo.binary, "lsp"] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        // The server's log goes to a folder of the test's own unless the test says where.
        var environment = environment ?? ProcessInfo.processInfo.environment
        if environment["XDG_STATE_HOME"] == nil {
            let state = try TempTree()
            stateFolder = state
            environment["XDG_STATE_HOME"] = state.path
        }
        process.environment = environment
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    public func sendRaw(_ bytes: [UInt8]) { try? stdin.fileHandleForWriting.write(contentsOf: Data(bytes)) }

    public func send(_ message: JSONValue) {
        var body = RPCEncoder.line(message)
        body.removeLast()
        sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    public func closeInput() { try? stdin.fileHandleForWriting.close() }

    public func request(_ method: String, _ params: JSONValue = .object([:])) -> Int {
        nextID += 1
        send(.object(["jsonrpc": .string("2.0"), "id": .integer(Int64(nextID)), "method": .string(method), "params": params]))
        return nextID
    }

    public func notify(_ method: String, _ params: JSONValue = .object([:])) {
        send(.object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params]))
    }

    /// The next message; nil on timeout or end of output.
    public func read(timeoutSeconds: Double = 20) -> JSONValue? {
        let message = reader.next(timeoutSeconds: timeoutSeconds, Self.takeMessage)
        if let message { seen.append(message) }
        return message
    }

    /// One Content-Length framed message cut from the front of `buffer`.
    static func takeMessage(_ buffer: inout [UInt8]) -> JSONValue? {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
        let header = String(decoding: buffer[..<end], as: UTF8.self)
        guard let lengthLine = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
            let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        let start = end + 4
        guard buffer.count >= start + length else { return nil }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeSubrange(..<(start + length))
        return try? JSONDecoder().decode(JSONValue.self, from: Data(body))
    }

    /// Reads until a message satisfies `match`.
    public func wait(timeoutSeconds: Double = 20, for match: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while let m = read(timeoutSeconds: max(deadline.timeIntervalSinceNow, 0.01)) {
            if match(m) { return m }
        }
        return nil
    }

    public func response(to id: Int, timeoutSeconds: Double = 20) -> JSONValue? {
        wait(timeoutSeconds: timeoutSeconds) { $0["id"]?.int == id && $0["method"] == nil }
    }

    /// `initialize` with these folders, then `initialized`.
    public func start(folders: [String], capabilities: JSONValue = .object([:])) -> JSONValue? {
        let id = request(
            "initialize",
            .object([
                "processId": .null, "rootUri": .null, "capabilities": capabilities,
                "workspaceFolders": .array(
                    folders.map { .object(["uri": .string("file://" + $0), "name": .string(($0 as NSString).lastPathComponent)]) }),
            ]))
        let reply = response(to: id)
        notify("initialized")
        return reply
    }

    /// Waits for the exit status (nil if it does not exit in time).
    public func exitStatus(timeoutSeconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }
}
