import Foundation
import RuleKit
import SystemCalls

/// Runs an exec rule's program and turns every way it can fail into a sentence.
enum ProcessRunner {
    static let outputLimit = 1 << 20

    static func run(argv: [String], input: [UInt8], timeoutMilliseconds: Int) -> Result<[UInt8], ExecFailure> {
        let output: ChildOutput
        do {
            output = try ChildProcess.run(argv: argv, input: input, timeoutMilliseconds: timeoutMilliseconds, outputLimit: outputLimit)
        } catch {
            return .failure(ExecFailure("could not start: \(error.reason)"))
        }
        let stderrText = String(decoding: output.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let suffix = stderrText.isEmpty ? "" : ": \(stderrText.prefix(200))"
        switch output.exit {
        case .timedOut: return .failure(ExecFailure("timed out after \(timeoutMilliseconds) ms and was killed"))
        case .signaled(let s): return .failure(ExecFailure("crashed (signal \(s))\(suffix)"))
        case .exited(let code) where code != 0: return .failure(ExecFailure("exited with status \(code)\(suffix)"))
        case .exited: break
        }
        if output.truncated { return .failure(ExecFailure("printed more than \(outputLimit) bytes")) }
        return .success(output.stdout)
    }
}

/// Why an exec rule produced nothing usable; the text completes "exec rule X …".
struct ExecFailure: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}
