import CSpawnShim

/// The process's heap.
public enum ProcessMemory {
    /// Gives free heap pages back to the kernel (glibc's `malloc_trim`): after a scan, the
    /// per-thread arenas hold the scan's freed temporaries, which resident memory counts.
    @discardableResult
    public static func releaseFreePages() -> Bool { rw_malloc_trim() == 1 }

    /// Has the heap grow by at least `bytes` at a time (glibc's `M_TOP_PAD`, 128 KiB by
    /// default), for a process that allocates steadily and then exits: each thread's arena
    /// otherwise grows a few pages per `mprotect` (921 of them in a cold `check` of 10,000 icons,
    /// 85 with 8 MiB; the check 1.5 ms faster, docs/performance.md). Pages reserved and not
    /// touched are not resident. Not for the daemon: its trims would keep that much too.
    /// A negative size is refused here: glibc would take it, as a size of some 2^64 bytes.
    @discardableResult
    public static func growHeap(inStepsOf bytes: Int) -> Bool {
        guard bytes >= 0 else { return false }
        return rw_malloc_top_pad(Int32(clamping: bytes)) == 1
    }
}
