import Foundation

/// How many engine jobs of one sort run at once. Each root's jobs run on a Dispatch queue of its
/// own, which gets a thread the moment it has work: 1,000 roots rescanned together (their
/// watches in place at start, or the kernel's queue overflowed) made some 256 threads, all
/// runnable on 2 cores, each with a stack and a share of malloc's arenas; a change in each of
/// them at once made 225. The daemon has two pools of these slots (`DaemonCore.slots`): one for
/// whole-root jobs (a scan, a rescan, new rules) and one for change sets, so a big scan of one
/// root never delays another root's change (`ScanOffActorTests`).
///
/// The pool also says when the heap should be trimmed (`malloc_trim`; the daemon's other trim is
/// `PageReleaser`'s, after large socket messages): when it falls idle after a burst of `trimAfter` jobs or more, or after a long
/// job. A burst's temporaries stay in malloc's arenas otherwise (1,000 small roots rescanned
/// once their watches were in place left 10 MB); a trim walks every arena, so not after each
/// lone change.
///
/// Generic over the waiter so that it can be tested without continuations.
struct EngineSlots<Waiter> {
    let width: Int
    let trimAfter: Int
    private(set) var running = 0
    private var waiting: [Waiter] = []
    /// Jobs that entered since the pool was last idle.
    private(set) var burst = 0
    /// A job of this burst was long.
    private var heavy = false

    init(width: Int = EngineSlots.machineWidth, trimAfter: Int) {
        self.width = max(1, width)
        self.trimAfter = max(1, trimAfter)
    }

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

    /// Gives a slot back after a job (`long`: it took long enough to leave much garbage).
    /// Returns the waiter that now has the slot, if one was waiting, and whether the heap should
    /// be trimmed now: the pool fell idle after a burst of `trimAfter` jobs or a long job.
    mutating func leave(long: Bool = false) -> (next: Waiter?, trim: Bool) {
        heavy = heavy || long
        guard waiting.isEmpty else {
            burst += 1
            return (waiting.removeFirst(), false)
        }
        running = max(0, running - 1)
        guard running == 0 else { return (nil, false) }
        defer {
            burst = 0
            heavy = false
        }
        return (nil, heavy || burst >= trimAfter)
    }

    var queued: Int { waiting.count }
}
