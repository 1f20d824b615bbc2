import Foundation
import ImageFacts
import TestSupport
import Testing

@testable import Reporting

/// The HTML page's pictures: downscaled to the size shown, stored once per identical picture,
/// and left out (and counted) past the page's budget.
@Suite struct ThumbnailsTests {
    /// A `side` × `side` PNG of noise (it does not compress: the worst case for the page's size).
    static func noise(_ side: Int, seed: UInt64) throws -> [UInt8] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for i in pixels.indices where i % 4 != 3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return try RGBAImage(width: side, height: side, pixels: pixels).png(alpha: false).get()
    }

    @Test func aThousandIconsStayWithinTheBudgetAndTheRestIsCounted() throws {
        let tree = try TempTree()
        let thumbnails = Thumbnails(budget: HTMLReporter.thumbnailBudget)
        var drawn = 0
        for i in 0..<1000 {
            let path = tree.path + "/\(i).png"
            try Data(try Self.noise(180, seed: UInt64(i))).write(to: URL(fileURLWithPath: path))
            if case .image = thumbnails.picture(of: path, side: 64) { drawn += 1 }
        }
        // Each thumbnail is made at the size it is shown (64 px), so the page holds a few MB at most.
        #expect(thumbnails.bytes <= HTMLReporter.thumbnailBudget + 64 * 64 * 4 * 2, "\(thumbnails.bytes)")
        #expect(drawn + thumbnails.leftOut == 1000, "every icon is drawn or counted as left out")
        #expect(drawn >= 300, "64-px thumbnails of noise: \(drawn) fit")
    }

    @Test func identicalPicturesAreStoredOnce() throws {
        let tree = try TempTree()
        let png = Data(try Self.noise(120, seed: 7))
        for name in ["a.png", "b.png"] { try png.write(to: URL(fileURLWithPath: tree.path + "/" + name)) }
        let thumbnails = Thumbnails(budget: 1 << 20)
        let a = thumbnails.picture(of: tree.path + "/a.png", side: 64)
        let b = thumbnails.picture(of: tree.path + "/b.png", side: 64)
        #expect(a == b && thumbnails.images.count == 1)
    }

    @Test func theStoreIconsTransparentPixelsAreMarked() throws {
        let tree = try TempTree()
        var pixels = [UInt8](repeating: 200, count: 64 * 64 * 4)
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        pixels[3] = 0  // one transparent corner pixel
        try Data(try RGBAImage(width: 64, height: 64, pixels: pixels).png(alpha: true).get()).write(
            to: URL(fileURLWithPath: tree.path + "/store.png"))
        let thumbnails = Thumbnails(budget: 1 << 20)
        guard case .image(_, 64, 64, true, let mask?) = thumbnails.picture(of: tree.path + "/store.png", side: 160, outline: true) else {
            Issue.record("no mask for a transparent App Store icon")
            return
        }
        let overlay = try RGBAImage.decode([UInt8](Data(base64Encoded: thumbnails.images[mask])!)).get()
        #expect(overlay.pixels[0] == 255 && overlay.pixels[3] == 255, "the transparent pixel is marked")
        #expect(overlay.pixels[7] == 0, "an opaque pixel is not")
    }
}
