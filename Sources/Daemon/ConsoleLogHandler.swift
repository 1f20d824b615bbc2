import Foundation
import Logging
import SystemCalls

/// stderr for people. Under journald (`JOURNAL_STREAM` set) each line starts with its syslog
/// priority (`<3>` error … `<7>` debug) so the journal keeps the level. A message names paths from
/// watched trees and the command line: it is shown as `FileName.display` shows a path, so a newline
/// or an escape sequence in a name can neither forge a log line nor recolour a terminal.
package struct ConsoleLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level
    let journald: Bool
    let label: String

    package init(label: String, level: Logger.Level = .info, environment: [String: String] = ProcessEnvironment.current()) {
        self.label = label
        logLevel = level
        journald = environment["JOURNAL_STREAM"].map { !$0.isEmpty } ?? false
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, b in b }
        let pairs = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let extra = pairs.isEmpty ? "" : " " + FileName.display(pairs.joined(separator: " "))
        let message = FileName.display("\(event.message)")
        let line: String
        if journald {
            line = "<\(Self.priority(event.level))>\(message)\(extra)\n"
        } else {
            line = "\(EventLog.timestamp()) \(event.level.rawValue.uppercased()) \(message)\(extra)\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
