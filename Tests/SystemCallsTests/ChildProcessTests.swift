import Foundation
import SystemCalls
import Testing

/// Exec rules run programs through `ChildProcess`; what those programs do must never reach reswatch.
@Suite struct ChildProcessTests {
    /// A program that exits without reading its stdin closes the pipe under reswatch's write: that
    /// is EPIPE, never a SIGPIPE that would kill the process (ChildProcess sets this up itself, so
    /// no caller can forget it). The input is larger than a pipe's buffer, so the write must fail.
    @Test func aProgramThatDoesNotReadItsInputDoesNotKillTheCaller() throws {
        signal(SIGPIPE, SIG_DFL)  // as a process starts, before anything else set it
        let input = [UInt8](repeating: 0x41, count: 4 << 20)
        // It closes its stdin at once and lives on, so the writes meet a closed reader.
        let output = try ChildProcess.run(argv: ["/bin/sh", "-c", "exec 0<&-; sleep 0.3"], input: input, timeoutMilliseconds: 10_000)
        #expect(output.exit == .exited(0))
        let echoed = try ChildProcess.run(argv: ["/bin/cat"], input: Array("still here".utf8), timeoutMilliseconds: 10_000)
        #expect(echoed.stdout == Array("still here".utf8))
    }
}
