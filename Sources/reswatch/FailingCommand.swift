import ArgumentParser
import Foundation
import SystemCalls

/// A command that stops on a problem the person must act on: said on stderr, exit status 2 (the
/// run is incomplete: not a finding, not success).
protocol FailingCommand {}

extension FailingCommand {
    /// `message`, then each of `details` on a line of its own.
    static func fail(_ message: String, details: [String] = []) -> ExitCode {
        StandardError.say("reswatch: \(message)")
        for line in details { StandardError.say(line) }
        return ExitCode(2)
    }
}

/// reswatch's own lines on stderr. A line is shown as `FileName.display` shows a path: an error's
/// text names paths from the command line, a config or a watched tree, and a newline or an escape
/// sequence in one of them must neither forge a line of its own nor recolour the terminal (a
/// log-file path holding a newline printed `cannot open the log file: open(/a` and a second line
/// that the path's rest wrote). Text already shown that way is unchanged (`display` is idempotent).
enum StandardError {
    static func say(_ line: String) {
        FileHandle.standardError.write(Data((FileName.display(line) + "\n").utf8))
    }

    /// A message of several lines (ArgumentParser's usage error) that quotes the command line:
    /// each argument in it, and each `--option=value`'s value, shown escaped; the message's own
    /// line breaks kept. (`check --format $'x\nreswatch: all clear'` printed a forged line.)
    static func escaping(_ arguments: [String], in message: String) -> String {
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
