import Foundation
import ReswatchProtocol
import Synchronization
import SystemCalls

/// `--log-file`: one JSON object per line for each diagnostic added/removed, state change, rescan
/// and module error. Reopened on SIGUSR1 so logrotate can move it away.
package final class EventLog: Sendable {
    package let path: String
    private let fd = Mutex<Int32>(-1)

    package init(path: String) throws(SystemError) {
        self.path = path
        try reopen()
    }

    deinit { fd.withLock { if $0 >= 0 { FileSystem.closeDescriptor($0) } } }

    package func reopen() throws(SystemError) {
        let new = try FileSystem.openForAppending(path, mode: 0o640)
        fd.withLock {
            if $0 >= 0 { FileSystem.closeDescriptor($0) }
            $0 = new
        }
    }

    package func write(_ event: String, _ fields: [String: JSONValue]) {
        var object = fields
        object["event"] = .string(event)
        object["ts"] = .string(Self.timestamp())
        var bytes = Array((try? Self.encoder.encode(JSONValue.object(object))) ?? Data())
        bytes.append(0x0A)
        fd.withLock { fd in
            guard fd >= 0 else { return }
            try? FileSystem.writeAll(fd, bytes, path: path)
        }
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// A value-type format style: built once, no per-line formatter allocation.
    static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    package static func timestamp(_ date: Date = Date()) -> String { timestampStyle.format(date) }
}
