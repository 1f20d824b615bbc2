import Foundation

/// The pixel memory all decodes in flight may hold together. Evaluations run one per core and each
/// decode may take up to `PNGReader.decodeLimitBytes`, so without a shared bound a tree of large
/// PNGs could hold cores × 256 MiB at once; a decode waits here until its buffer fits.
public final class DecodeBudget: @unchecked Sendable {  // state guarded by `condition`
    /// The process's budget: two of the largest decodes at once.
    public static let shared = DecodeBudget(limit: 2 * PNGReader.decodeLimitBytes)

    public let limit: UInt64
    private let condition = NSCondition()
    private var inUse: UInt64 = 0
    private var highest: UInt64 = 0

    public init(limit: UInt64) { self.limit = limit }

    /// The most held at once so far (for tests and diagnostics).
    public var peak: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return highest
    }

    /// Runs `body` holding `bytes` of the budget (capped at the whole budget), waiting until they fit.
    public func withReservation<T>(_ bytes: UInt64, _ body: () -> T) -> T {
        let need = min(bytes, limit)
        condition.lock()
        while inUse + need > limit { condition.wait() }
        inUse += need
        highest = max(highest, inUse)
        condition.unlock()
        defer {
            condition.lock()
            inUse -= need
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }

    /// The decoded buffer a PNG needs, from its IHDR (after palette and tRNS expansion, at most
    /// 4 channels of its bit depth); the largest possible when the header cannot be read.
    public static func estimate(_ bytes: [UInt8]) -> UInt64 {
        guard bytes.count >= 29 else { return PNGReader.decodeLimitBytes }
        let be32 = { (i: Int) in
            (UInt64(bytes[i]) << 24) | (UInt64(bytes[i + 1]) << 16) | (UInt64(bytes[i + 2]) << 8) | UInt64(bytes[i + 3])
        }
        let width = be32(16)
        let height = be32(20)
        let depth: UInt64 = bytes[24] == 16 ? 2 : 1
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { return PNGReader.decodeLimitBytes }
        let (total, overflow2) = product.multipliedReportingOverflow(by: 4 * depth)
        return overflow2 ? PNGReader.decodeLimitBytes : min(total, PNGReader.decodeLimitBytes)
    }
}
