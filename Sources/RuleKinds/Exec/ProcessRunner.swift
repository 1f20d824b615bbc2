import Dispatch
import Foundation
import Synchronization

/// Runs a program without a shell, feeding stdin and collecting stdout, with a hard timeout.
enum ProcessRunner {
    static let outputLimit = 1 << 20

    static func run(argv: [String], input: [UInt8], timeoutMilliseconds: Int) -> Result<[UInt8], ExecFailure> {
        signal(SIGPIPE, SIG_IGN)  // a program that exits without reading stdin must not kill reswatch
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do { try process.run() } catch {
            return .failure(ExecFailure("could not start: \((error as NSError).localizedDescription)"))
        }
        let output = Mutex([UInt8]())
        let errors = Mutex([UInt8]())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            output.withLock { $0 = Array(data.prefix(outputLimit + 1)) }
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = Array(data.prefix(4096)) }
            group.leave()
        }
        DispatchQueue.global().async {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        let deadline = DispatchTime.now() + .milliseconds(timeoutMilliseconds)
        if group.wait(timeout: deadline) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            _ = group.wait(timeout: .now() + 1)
            return .failure(ExecFailure("timed out after \(timeoutMilliseconds) ms and was killed"))
        }
        process.waitUntilExit()
        let stderrText = String(decoding: errors.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let suffix = stderrText.isEmpty ? "" : ": \(stderrText.prefix(200))"
        if process.terminationReason == .uncaughtSignal {
            return .failure(ExecFailure("crashed (signal \(process.terminationStatus))\(suffix)"))
        }
        if process.terminationStatus != 0 {
            return .failure(ExecFailure("exited with status \(process.terminationStatus)\(suffix)"))
        }
        let bytes = output.withLock { $0 }
        if bytes.count > outputLimit { return .failure(ExecFailure("printed more than \(outputLimit) bytes")) }
        return .success(bytes)
    }
}

/// Why an exec rule produced nothing usable; the text completes "exec rule X …".
struct ExecFailure: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}
