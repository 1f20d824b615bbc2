import Findings
import Logging
import ReswatchProtocol

/// How a finding is written to the journal and to the JSON log.
extension DaemonCore {
    /// A finding is not a fault of the daemon: an error finding is logged as a warning.
    static func level(_ s: Severity) -> Logger.Level {
        switch s {
        case .error: .warning
        case .warning: .notice
        case .info: .info
        }
    }

    static func journalFields(_ d: Diagnostic, _ event: String) -> Logger.Metadata {
        var f: Logger.Metadata = [
            "rule": "\(d.rule)", "severity": "\(d.severity.rawValue)", "root": "\(d.root)", "path": "\(d.path)", "event": "\(event)",
        ]
        if let c = d.code { f["code"] = "\(c)" }
        if let l = d.line { f["line"] = "\(l)" }
        return f
    }

    static func logFields(_ d: Diagnostic) -> [String: JSONValue] {
        var f: [String: JSONValue] = [
            "rule": .string(d.rule), "severity": .string(d.severity.rawValue), "root": .string(d.root), "path": .string(d.path),
            "message": .string(d.message),
        ]
        if let c = d.code { f["code"] = .string(c) }
        if let l = d.line { f["line"] = .number(Double(l)) }
        return f
    }
}
