import Foundation

/// How many engine jobs of one sort run at once. Each root's jobs run on a Dispatch queue of its
/// own, which gets a thread the moment it has work: 1,000 roots rescanned together (their
/// watches in place at start, or the kernel's queue overflowed) made some 256 threads, all
/// runnable on 2 cores, each with a stack and a share of malloc's arenas; a change in each of
/// them at once made 225. The daemon has two pools of these slots (`DaemonCore.slots`): one for
/// whole-root jobs (a scan, a rescan, new rules) and one for change sets, so a big scan of one
/// root never delays another root's change (`ScanOffActorTests`).
///
/// Generic over the waiter so that it can be tested without continuations.
struct EngineSlots<Waiter> {
    let width: Int
    private(set) var running = 0
    private var waiting: [Waiter] = []
    /// Jobs that entered since the pool was last idle.
    private(set) var burst = 0

    init(width: Int = EngineSlots.machineWidth) { self.width = max(1, width) }

    /// The width for this machine: one per core, and at least two.
    static var machineWidth: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// Takes a slot if one is free.
    mutating func tryEnter() -> Bool {
        guard running < width else { return false }
        running += 1
        burst += 1
        return true
    }

    /// Waits in line for a slot (after `tryEnter` failed): a later `leave()` hands it over, first
    /// come, first served.
    mutating func queue(_ waiter: Waiter) { waiting.append(waiter) }

    /// Gives a slot back. Returns the waiter that now has it, if one was waiting; when none was
    /// and the pool is idle, `idleAfter` is how many jobs the burst that just ended had.
    mutating func leave() -> (next: Waiter?, idleAfter: Int?) {
        guard waiting.isEmpty else {
            burst += 1
            return (waiting.removeFirst(), nil)
        }
        running = max(0, running - 1)
        guard running == 0 else { return (nil, nil) }
        defer { burst = 0 }
        return (nil, burst)
    }

    var queued: Int { waiting.count }
}
