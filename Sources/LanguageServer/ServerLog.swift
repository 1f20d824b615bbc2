import Foundation
import SystemCalls

/// Where an editor's reswatch writes what it does: `$XDG_STATE_HOME/reswatch/` (else
/// `~/.local/state/reswatch/`), a 0700 folder holding `lsp.log` (every language server, each line
/// with its process id) and `daemon.log` (a daemon an editor started).
package enum StateFiles {
    /// A log over this size is moved to `NAME.1` (replacing the previous one) when it is opened.
    package static let rotateBytes = 1 << 20

    package static func directory(environment env: [String: String]) -> String {
        let state = env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((env["HOME"] ?? "/tmp") + "/.local/state")
        return state + "/reswatch"
    }

    /// Opens `name` in the state folder for appending (creating both), after moving it to
    /// `name.1` if it has grown past `rotateBytes`: the logs of editors that run for years stay
    /// bounded.
    package static func openLog(_ name: String, environment env: [String: String]) throws(SystemError) -> (fd: Int32, path: String) {
        let directory = directory(environment: env)
        var parent = ""
        for component in directory.split(separator: "/") {
            parent += "/" + component
            if (try? FileSystem.status(parent)) == nil { try FileSystem.makeDirectory(parent, mode: 0o700) }
        }
        let path = directory + "/" + name
        if let status = try? FileSystem.status(path) {
            // A FIFO would block the open (and the editor with it); a link or folder is not ours to write through.
            guard status.kind == .regular else {
                throw SystemError(call: "open", path: path, errno: EINVAL, detail: "\(path) is not a regular file: no log is written")
            }
            if status.size > rotateBytes { try FileSystem.renameFile(path, path + ".1") }
        }
        return (try FileSystem.openForAppending(path, mode: 0o600), path)
    }
}

/// The language server's log file (`lsp.log` in the state folder): what it tells the editor with
/// `window/logMessage` and `window/showMessage`, and what it cannot tell it any more (a broken
/// stream, the exit), one line each with the time and process id.
package final class ServerLogFile: Sendable {
    package let path: String
    let fd: Int32
    let pid = getpid()

    package init(environment: [String: String]) throws(SystemError) {
        (fd, path) = try StateFiles.openLog("lsp.log", environment: environment)
    }

    deinit { FileSystem.closeDescriptor(fd) }

    /// One line; LSP's message types (1 error, 2 warning, 3 info, 4 log) name the level. A write
    /// that fails (a full disk) is dropped: the editor still gets the message.
    package func write(type: Int, _ text: String) {
        let level = ["", "error", "warning", "info", "log"][min(max(type, 0), 4)]
        let stamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let line = "\(stamp) reswatch-lsp[\(pid)] \(level): \(text.replacingOccurrences(of: "\n", with: " "))\n"
        try? FileSystem.writeAll(fd, Array(line.utf8), path: path)
    }
}
