import ArgumentParser
import Flows

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

    /// A flow's failure, said as `fail` says one.
    static func fail(_ failure: FlowFailure) -> ExitCode { fail(failure.message, details: failure.details) }
}
