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
        let line = JSONValue.object(object)
        // JSONEncoder's bytes, written by CompactJSON where it can (a line per finding of a change).
        var bytes = CompactJSON.encode(line) ?? Array((try? Self.encoder.encode(line)) ?? Data())
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

    /// `2026-11-27T04:30:12.345Z`: what `Date.ISO8601FormatStyle(includingFractionalSeconds: true)`
    /// writes (EventLogTimestampTests compares them), from `gmtime_r`. The format style built a
    /// Gregorian calendar at the daemon's first log line, which made ICU look up time zones: ICU's
    /// code and tables stayed in the daemon's resident set for a UTC stamp (issue 30).
    package static func timestamp(_ date: Date = Date()) -> String {
        let since1970 = date.timeIntervalSince1970
        let whole = since1970.rounded(.down)
        var millis = Int(exactly: ((since1970 - whole) * 1000).rounded(.down)) ?? 0
        var seconds = time_t(exactly: whole) ?? 0
        if millis >= 1000 {
            millis -= 1000
            seconds += 1
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))"
            + "T\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2))."
            + "\(digits(Int32(millis), 3))Z"
    }
}
