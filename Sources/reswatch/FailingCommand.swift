import ArgumentParser
import Foundation

/// A command that stops on a problem the person must act on: said on stderr, exit status 2 (the
/// run is incomplete: not a finding, not success).
protocol FailingCommand {}

extension FailingCommand {
    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("reswatch: \(message)\n".utf8))
        return ExitCode(2)
    }
}
