import Dispatch
import Synchronization
import SystemCalls

/// Gives free heap pages back to the kernel a moment after the daemon wrote a large message (a
/// reply or a notification of `largeMessage` bytes or more), the other time it trims the heap
/// besides its engine jobs' (`EngineSlots`). A `status` of 1,000 roots is 186 kB of JSON, built,
/// copied into the socket's buffer and freed; blocks that size come from malloc's arenas, not
/// their own mappings, and ten such replies left 2 MB resident that a trim gave back
/// (docs/performance.md). Messages written within `delay` of one another are one trim, so a
/// client that polls costs at most one trim (a millisecond or two) per `delay`.
package final class PageReleaser: Sendable {
    package static let largeMessage = 64 * 1024

    private let scheduled = Atomic<Bool>(false)
    private let done = Atomic<Int>(0)
    private let delay: DispatchTimeInterval
    private let release: @Sendable () -> Void

    init(delay: DispatchTimeInterval = .milliseconds(100), release: @escaping @Sendable () -> Void = { ProcessMemory.releaseFreePages() }) {
        self.delay = delay
        self.release = release
    }

    /// A message of `bytes` was handed to the socket: a large one has the heap trimmed after
    /// `delay` (by then its buffers are freed), unless a trim is already on its way.
    package func wrote(bytes: Int) {
        guard bytes >= Self.largeMessage,
            scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [self] in
            scheduled.store(false, ordering: .releasing)
            release()
            done.add(1, ordering: .relaxed)
        }
    }

    /// Trims run so far (`reswatch_heap_trims_total{after="socket message"}`).
    package var trims: Int { done.load(ordering: .relaxed) }
}
