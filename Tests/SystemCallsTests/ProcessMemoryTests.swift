import Foundation
import SystemCalls
import TestSupport
import Testing

/// After a scan, the daemon hands freed heap pages back (issue 11: 240 → 190 MB resident at
/// 100k files). Small blocks freed in the middle of the heap stay resident until then.
@Suite(.serialized) struct ProcessMemoryTests {
    static func resident() -> Int { residentBytes(pid: getpid()) ?? 0 }

    /// Freeing alone leaves them resident (80 MB here); the trim gives them back.
    @Test func freedSmallBlocksGoBackToTheKernel() {
        // 80 MB in 2 KB blocks, touched, then all freed but the last (which pins the heap's top).
        var blocks: [[UInt8]] = (0..<40_000).map { i in [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 2048) }
        let pin = [UInt8](repeating: 1, count: 2048)
        let peak = Self.resident()
        blocks.removeAll()
        let freed = Self.resident()
        #expect(ProcessMemory.releaseFreePages())
        let trimmed = Self.resident()
        #expect(freed - trimmed > 40 << 20, "peak \(peak >> 20) MB, after free \(freed >> 20) MB, after trim \(trimmed >> 20) MB")
        #expect(pin.count == 2048)
    }

    /// glibc takes the setting (the check's heap then grows 8 MiB at a time); a negative size,
    /// which glibc would take as a huge one, is refused before it gets there.
    @Test func heapGrowthStepIsTakenAndANegativeOneRefused() {
        #expect(ProcessMemory.growHeap(inStepsOf: 128 << 10))  // glibc's default: nothing changes here
        #expect(!ProcessMemory.growHeap(inStepsOf: -1))
    }
}
