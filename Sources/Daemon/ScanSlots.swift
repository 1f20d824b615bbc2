import Foundation

/// How many whole-root engine jobs (a scan, a rescan, new rules) run at once: one per core, and
/// at least two. Each root's jobs run on a Dispatch queue of its own, which gets a thread the
/// moment it has work: 1,000 roots rescanned together (their watches in place at start, or the
/// kernel's queue overflowed) made some 256 threads, all runnable on 2 cores, each with a stack
/// and a share of malloc's arenas. A change set is never held here: it is small, and a big scan
/// of one root must not delay another root's change (`ScanOffActorTests`).
///
/// Generic over the waiter so that it can be tested without continuations.
struct ScanSlots<Waiter> {
    let width: Int
    private(set) var running = 0
    private var waiting: [Waiter] = []

    init(width: Int = ScanSlots.machineWidth) { self.width = max(1, width) }

    /// The width for this machine.
    static var machineWidth: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// Takes a slot: true if one was free; otherwise `waiter` is queued and is handed a slot by
    /// a later `leave()`, first come, first served.
    mutating func enter(orQueue waiter: Waiter) -> Bool {
        guard running >= width else {
            running += 1
            return true
        }
        waiting.append(waiter)
        return false
    }

    /// Gives a slot back; returns the waiter that now has it, if one was waiting.
    mutating func leave() -> Waiter? {
        guard !waiting.isEmpty else {
            running = max(0, running - 1)
            return nil
        }
        return waiting.removeFirst()
    }

    var queued: Int { waiting.count }
}
