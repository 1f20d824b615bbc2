import Foundation
import Logging
import SystemCalls

/// Structured entries for systemd's journal, over its native protocol (a datagram of fields to
/// /run/systemd/journal/socket): `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`,
/// `CODE_LINE`, `CODE_FUNC`, and each metadata key as `RESWATCH_<KEY>` (so
/// `journalctl RESWATCH_RULE=icon.marketing-alpha` finds a rule's findings). When a datagram
/// cannot be sent, the line goes to stderr with its priority prefix instead: nothing is lost.
package struct JournalLogHandler: LogHandler {
    package static let defaultSocket = "/run/systemd/journal/socket"
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level
    let socket: String
    let fallback: ConsoleLogHandler

    package init(label: String, level: Logger.Level = .info, socket: String = JournalLogHandler.defaultSocket) {
        logLevel = level
        self.socket = socket
        fallback = ConsoleLogHandler(label: label, level: level, environment: ["JOURNAL_STREAM": "fallback"])
    }

    /// The journal's socket when the daemon's stderr is connected to the journal (`JOURNAL_STREAM`
    /// names stderr's device and inode, as systemd sets it), or when `RESWATCH_JOURNAL_SOCKET`
    /// names one; else nil (a terminal, a file, a container without journald).
    package static func socket(environment: [String: String]) -> String? {
        if let forced = environment["RESWATCH_JOURNAL_SOCKET"], !forced.isEmpty { return forced }
        guard let stream = environment["JOURNAL_STREAM"], let status = try? FileSystem.descriptorStatus(2),
            stream == "\(status.device):\(status.inode)", (try? FileSystem.status(defaultSocket)) != nil
        else { return nil }
        return defaultSocket
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields: [(String, String)] = [
            ("MESSAGE", "\(event.message)"), ("PRIORITY", String(ConsoleLogHandler.priority(event.level))),
            ("SYSLOG_IDENTIFIER", "reswatch"), ("CODE_FILE", event.file), ("CODE_LINE", String(event.line)),
            ("CODE_FUNC", event.function),
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, b in b }).sorted(by: { $0.key < $1.key }) {
            fields.append((Self.fieldName(key), "\(value)"))
        }
        do { try UnixSocket.sendDatagram(Self.encode(fields), to: socket) } catch {
            fallback.log(event: event)
        }
    }

    /// `rule` → `RESWATCH_RULE`: upper case letters, digits and underscores, as journal fields must be.
    static func fieldName(_ key: String) -> String {
        "RESWATCH_" + String(key.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// The native protocol: `KEY=value\n`, or for a value holding a newline `KEY\n` + its length
    /// (64-bit little endian) + the value + `\n`.
    static func encode(_ fields: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (key, value) in fields {
            let bytes = Array(value.utf8)
            out += Array(key.utf8)
            if bytes.contains(0x0A) {
                out.append(0x0A)
                withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { out += $0 }
                out += bytes
            } else {
                out.append(UInt8(ascii: "="))
                out += bytes
            }
            out.append(0x0A)
        }
        return out
    }
}
