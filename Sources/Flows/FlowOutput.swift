import Foundation
import Synchronization
import SystemCalls

/// Where a flow's text goes: its reports and plans (standard output) and its notes and errors
/// (standard error). The commands pass the process's own; a test collects them in-process.
package struct FlowOutput: Sendable {
    /// Text for standard output, written as given (a line carries its own newline).
    package let write: @Sendable (String) -> Void
    /// One line for standard error (shown as `StandardError.say` shows it).
    package let say: @Sendable (String) -> Void

    package init(write: @escaping @Sendable (String) -> Void, say: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.say = say
    }

    /// A line for standard output.
    package func print(_ line: String) { write(line + "\n") }

    /// The process's standard output and standard error.
    package static let process = FlowOutput(write: { Swift.print($0, terminator: "") }, say: { StandardError.say($0) })
}

/// A flow's output kept in memory, as the process would have shown it (for tests and embedders).
package final class CollectedOutput: Sendable {
    private let text = Mutex<(out: String, err: [String])>(("", []))

    package init() {}

    package var output: FlowOutput {
        FlowOutput(
            write: { [self] t in text.withLock { $0.out += t } },
            say: { [self] line in text.withLock { $0.err.append(FileName.display(line)) } })
    }

    /// Everything written to standard output.
    package var standardOutput: String { text.withLock { $0.out } }
    /// The lines said on standard error.
    package var standardError: [String] { text.withLock { $0.err } }
}

/// A flow that cannot run as asked (a path, a configuration, a rule module, a file it cannot
/// write): nothing is reported as checked. The commands say it and exit 2.
package struct FlowFailure: Error, CustomStringConvertible {
    package let message: String
    /// Lines said after the message, each on its own (a configuration's problems).
    package let details: [String]

    package init(_ message: String, details: [String] = []) {
        self.message = message
        self.details = details
    }

    package var description: String { ([message] + details).joined(separator: "\n") }
}

/// An option value or combination that is wrong whatever the tree holds (a usage error).
package struct UsageProblem: Error, CustomStringConvertible {
    package let message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}

/// reswatch's own lines on stderr. A line is shown as `FileName.display` shows a path: an error's
/// text names paths from the command line, a config or a watched tree, and a newline or an escape
/// sequence in one of them must neither forge a line of its own nor recolour the terminal (a
/// log-file path holding a newline printed `cannot open the log file: open(/a` and a second line
/// that the path's rest wrote). Text already shown that way is unchanged (`display` is idempotent).
package enum StandardError {
    package static func say(_ line: String) {
        FileHandle.standardError.write(Data((FileName.display(line) + "\n").utf8))
    }

    /// A message of several lines (ArgumentParser's usage error) that quotes the command line:
    /// each argument in it, and each `--option=value`'s value, shown escaped; the message's own
    /// line breaks kept. (`check --format $'x\nreswatch: all clear'` printed a forged line.)
    package static func escaping(_ arguments: [String], in message: String) -> String {
        let quoted = arguments.flatMap { argument -> [String] in
            guard argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") else { return [argument] }
            return [argument, String(argument[argument.index(after: equals)...])]
        }
        var message = message
        for text in Set(quoted).sorted(by: { $0.count > $1.count }) where FileName.display(text) != text {
            message = message.replacingOccurrences(of: text, with: FileName.display(text))
        }
        return message
    }
}
