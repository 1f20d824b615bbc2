import CSpawnShim

/// The process's heap.
public enum ProcessMemory {
    /// Gives free heap pages back to the kernel (glibc's `malloc_trim`): after a scan, the
    /// per-thread arenas hold the scan's freed temporaries, which resident memory counts.
    @discardableResult
    public static func releaseFreePages() -> Bool { rw_malloc_trim() == 1 }
}
