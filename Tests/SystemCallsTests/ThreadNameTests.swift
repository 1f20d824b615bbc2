import Foundation
import Synchronization
import SystemCalls
import Testing

/// The daemon's own threads are named (`top -H`, `ps -L`, the idle test's context switches):
/// through pthreads, because Foundation's `Thread.name` did not name a started thread reliably.
@Suite struct ThreadNameTests {
    /// What the kernel shows for the calling thread.
    static func comm() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    /// 300 threads, each naming itself as its first act: every one is named, as the kernel
    /// reports it (Foundation's `Thread.current.name` missed 1–5 of 300 on a busy core).
    @Test func everyStartedThreadIsNamed() {
        let names = Mutex<[String]>([])
        for i in 0..<300 {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                ThreadName.setCurrent("rw-test-\(i)")
                names.withLock { $0.append(Self.comm() == "rw-test-\(i)" ? "" : "thread \(i): \(Self.comm())") }
                done.signal()
            }
            thread.start()
            done.wait()
        }
        let misses = names.withLock { $0.filter { !$0.isEmpty } }
        #expect(misses.isEmpty, "unnamed: \(misses)")
    }

    /// A longer name is cut to the kernel's 15 bytes on a whole character, not refused.
    @Test func aLongNameIsCutToFifteenBytes() {
        let done = DispatchSemaphore(value: 0)
        let seen = Mutex<(Bool, String, String)>((false, "", ""))
        let thread = Thread {
            let accepted = ThreadName.setCurrent("rw-a-very-long-thread-näme")
            seen.withLock { $0 = (accepted, ThreadName.current(), Self.comm()) }
            done.signal()
        }
        thread.start()
        done.wait()
        let (accepted, name, comm) = seen.withLock { $0 }
        #expect(accepted && name == "rw-a-very-long-" && comm == name, "\(accepted) \(name) \(comm)")
    }
}
