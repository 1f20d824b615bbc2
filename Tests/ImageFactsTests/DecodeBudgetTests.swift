import Foundation
import SystemCalls
import Testing

@testable import ImageFacts

@Suite struct DecodeBudgetTests {
    @Test func concurrentReservationsNeverExceedTheBudgetAndAllFinish() async {
        let budget = DecodeBudget(limit: 256)
        let finished = await withTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    await Task.detached {
                        budget.withReservation(100) {
                            usleep(2_000)
                            return index
                        }
                    }.value
                }
            }
            var done: [Int] = []
            for await value in group { done.append(value) }
            return done.sorted()
        }
        #expect(finished == Array(0..<8))
        #expect(budget.peak <= 256)
        #expect(budget.peak >= 100)
    }

    @Test func aReservationLargerThanTheBudgetIsCappedNotDeadlocked() {
        let budget = DecodeBudget(limit: 64)
        let value = budget.withReservation(1_000) { 7 }
        #expect(value == 7)
        #expect(budget.peak == 64)
    }

    @Test func aRealDecodeHoldsItsBufferFromTheProcessBudget() {
        let bytes = PNGSynthesizer.encode(PNGSpec(width: 700, height: 700, color: .rgba))
        let key = FileKey(device: 0, inode: 0, size: 0, modifiedNanoseconds: 0)
        #expect(PNGReader.decode(bytes: bytes, key: key).damage == nil)
        #expect(DecodeBudget.estimate(bytes) == 700 * 700 * 4)
        #expect(DecodeBudget.shared.peak >= 700 * 700 * 4, "libpng's buffer was reserved before the decode")
    }

    @Test func estimateReadsTheHeaderAndFallsBackToTheLargestOnGarbage() {
        // IHDR of a 1024×1024 8-bit RGBA PNG.
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        header += Array("IHDR".utf8) + [0, 0, 4, 0, 0, 0, 4, 0, 8, 6, 0, 0, 0]
        #expect(DecodeBudget.estimate(header) == 1024 * 1024 * 4)
        #expect(DecodeBudget.estimate([1, 2, 3]) == PNGReader.decodeLimitBytes)
        var huge = header
        huge.replaceSubrange(16..<24, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(DecodeBudget.estimate(huge) == PNGReader.decodeLimitBytes)
    }
}
