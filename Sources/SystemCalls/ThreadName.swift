import CSpawnShim

/// The calling thread's name, as `top -H`, `ps -L` and `/proc/PID/task/TID/comm` show it.
///
/// Foundation's `Thread.name` does not name a thread reliably on Linux: set before `start()` the
/// thread was never named (300 starts of 300), and set from inside the thread it stayed unnamed
/// in 1–5 starts of 300 on a busy core (the CI run of 158b16b: `IdleTests` found no thread
/// named `rw-inotify` after a sync had gone through it). This asks pthreads directly.
public enum ThreadName {
    /// The kernel keeps 15 bytes of a thread's name.
    public static let maximumLength = 15

    /// Names the calling thread; a longer name is cut to its first 15 bytes (on a whole
    /// character). False when the name was refused.
    @discardableResult
    public static func setCurrent(_ name: String) -> Bool {
        var cut = ""
        for character in name where cut.utf8.count + character.utf8.count <= maximumLength { cut.append(character) }
        return rw_name_current_thread(cut) == 0
    }

    /// The calling thread's name.
    public static func current() -> String {
        var buffer = [CChar](repeating: 0, count: maximumLength + 1)
        guard rw_current_thread_name(&buffer, Int32(buffer.count)) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
