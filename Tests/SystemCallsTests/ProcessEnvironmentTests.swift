import Foundation
import SystemCalls
import TestSupport
import Testing

/// The environment is read from its bytes: a value that is not UTF-8 keeps its bytes (Foundation's
/// `ProcessInfo` turned them into U+FFFD), and every other value is what `ProcessInfo` reads.
@Suite struct ProcessEnvironmentTests {
    @Test func utf8ValuesAreWhatProcessInfoReads() {
        let ours = ProcessEnvironment.current()
        #expect(!ours.isEmpty)
        for (name, value) in ProcessInfo.processInfo.environment where !value.unicodeScalars.contains("\u{FFFD}") {
            #expect(ours[name] == value, "\(name)")
        }
    }

    /// `RESWATCH_SOCKET` naming a path that is not UTF-8: the daemon binds exactly that path and
    /// a client dials it (before, both used the path with U+FFFD's three bytes in its place).
    /// Foundation's `Process` passes only UTF-8, so the shell's `printf` makes the byte.
    @Test func aSocketPathInTheEnvironmentKeepsItsBytes() throws {
        let tree = try TempTree()
        #expect(mkdir(tree.path + "/root", 0o755) == 0)
        let script = #"""
            export RESWATCH_SOCKET="$2/s$(printf '\377').sock"
            "$1" daemon "$2/root" 2>/dev/null & pid=$!
            for i in $(seq 100); do "$1" status >"$2/out" 2>&1 && break; sleep 0.1; done
            test -S "$RESWATCH_SOCKET" && echo "bound where named"
            test -e "$2/s$(printf '\357\277\275').sock" && echo "bound elsewhere"
            kill $pid; wait $pid
            cat "$2/out"; rm -f "$2/out"
            """#
        let run = try runCommand("/bin/sh", ["-c", script, "sh", Repo.binary, tree.path])
        #expect(run.stdout.contains("bound where named") && !run.stdout.contains("bound elsewhere"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains(tree.path + "/root"), "status answered on that socket: \(run.stdout)")
    }
}
