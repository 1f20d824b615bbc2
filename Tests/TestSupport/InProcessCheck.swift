import Flows
import Foundation

/// `reswatch check` run in this process (`CheckRun`, the flow the command hands its flags to):
/// what the person would see on standard output and error, and the exit status the command would
/// give (2 for a run that cannot check as asked, said as the command says it). A test of what a
/// check finds uses this; a test of the process itself (argument parsing, signals, exit codes as
/// a shell sees them) starts the binary.
package func checkInProcess(_ paths: [String], _ configure: (inout CheckOptions) -> Void = { _ in }) -> CommandResult {
    var options = CheckOptions()
    options.paths = paths
    configure(&options)
    let collected = CollectedOutput()
    let status: Int32
    do { status = try CheckRun.run(options, output: collected.output).status } catch {
        collected.output.say("reswatch: \(error.message)")
        for line in error.details { collected.output.say(line) }
        status = 2
    }
    let stderr = collected.standardError.map { $0 + "\n" }.joined()
    return CommandResult(status: status, stdout: collected.standardOutput, stderr: stderr)
}

/// `check --format json`, in-process: the exit status and the diagnostics array (empty when the
/// output is not the JSON report; `result.stderr` then says why).
package func checkDiagnostics(_ paths: [String], _ configure: (inout CheckOptions) -> Void = { _ in }) -> (
    result: CommandResult, diagnostics: [[String: Any]]
) {
    let result = checkInProcess(paths) { options in
        options.outputs = [OutputPlan.Output(format: "json", file: nil)]
        configure(&options)
    }
    let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    return (result, object?["diagnostics"] as? [[String: Any]] ?? [])
}

/// `reswatch fix` run in this process (`FixRun`): standard output and error as the person would
/// see them, and the exit status the command would give.
package func fixInProcess(_ paths: [String], _ configure: (inout FixOptions) -> Void = { _ in }) -> CommandResult {
    var options = FixOptions()
    options.paths = paths
    configure(&options)
    let collected = CollectedOutput()
    let status: Int32
    do { status = try FixRun.run(options, output: collected.output) } catch {
        collected.output.say("reswatch: \(error.message)")
        for line in error.details { collected.output.say(line) }
        status = 2
    }
    let stderr = collected.standardError.map { $0 + "\n" }.joined()
    return CommandResult(status: status, stdout: collected.standardOutput, stderr: stderr)
}
