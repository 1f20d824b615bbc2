import Foundation

/// Runs recursive work (a parser walking hostile input) on a thread with a stack of its own size,
/// and waits for it.
enum LargeStack {
    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }

    static func run<T>(bytes: Int, _ body: @escaping @Sendable () -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        // `box` is written by the thread before it signals and read only after the wait.
        let thread = Thread {
            box.value = body()
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return box.value!
    }
}
