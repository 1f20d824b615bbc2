import ProjectModel
import Testing

/// A Contents.json "size" is points as `WxH`; anything else, or a number no slot could have, is no
/// size (the slot is then reported as not valid), never a trap.
@Suite struct AssetSizeTests {
    @Test(arguments: [
        ("60x60", 60.0, 60.0), ("60X60", 60, 60), ("83.5x83.5", 83.5, 83.5), ("1024x1024", 1024, 1024), ("20x29", 20, 29),
    ])
    func aSizeIsWidthByHeight(_ size: String, _ width: Double, _ height: Double) {
        let points = AssetImageEntry(size: size).points
        #expect(points?.width == width && points?.height == height, "\(size)")
    }

    @Test(arguments: [
        "", "60", "x60", "60x", "60x60x60", "1e19x1e19", "infxinf", "INFXINF", "nanxnan", "-60x60", "0x0", "60 x 60", "sixtyxsixty",
    ])
    func notASize(_ size: String) {
        #expect(AssetImageEntry(size: size).points == nil, "\(size)")
    }

    /// The byte-level reading gives what splitting by `Character` gave, on sizes and scales a
    /// hand-written Contents.json may hold: doubled or leading separators, signs, exponents,
    /// combining marks after the "x", digits that are not ASCII, slices of a larger string.
    @Test func bytesReadWhatCharactersRead() {
        let sizes = [
            "60x60", "60xx60", "x60x60", "60x60x", "xx", "x", "60X60", "83.5x83.5", "+2x2", "1e2x1e2", " 60x60", "60x\u{301}60",
            "\u{FF16}\u{FF10}x60", "0x1p4x0x1p4", "60x\u{1F600}", "\u{10FF78}60x60", "60x60\u{10FF78}", "1024x1024", "60.x60", ".5x.5",
            "0.1x0.1", "83.50x83.5", "00060x60",
            "1.2.3x4", "123456789012345x1", "1234567890123456x1", "99999.99999x0.000000000000001", "1x1.0000000000000001",
        ]
        for size in sizes {
            for text in [size, String(("(" + size + ")").dropFirst().dropLast())] {
                let expected = Self.referencePoints(text)
                let points = AssetImageEntry(size: text).points
                #expect(points?.width == expected?.width && points?.height == expected?.height, "\(text)")
            }
        }
        let scales = ["1x", "2x", "3x", "4x", "0x", "+2x", "02x", "2X", "x", "2", "", "2x\u{301}", "\u{FF12}x", " 2x"]
        for scale in scales {
            var entry = AssetImageEntry()
            entry.scale = scale
            #expect(entry.scaleFactor == Self.referenceScale(scale), "\(scale)")
        }
    }

    /// Plain decimals are read on their bytes: to the last bit what `Double(_:)` reads, for every
    /// number of digits up to where the parser takes over, and every place of the ".".
    @Test func plainDecimalsAreTheDoublesTheParserGives() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<20_000 {
            var text = String((0..<(1 + next(17))).map { _ in Character(String(next(10))) })
            if next(3) > 0 { text.insert(".", at: text.index(text.startIndex, offsetBy: next(text.count + 1))) }
            let expected = Double(text).flatMap { $0 > 0 && $0 <= 100_000 ? $0 : nil }
            let width = AssetImageEntry(size: text + "x1").points?.width
            #expect(width?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }

    /// What `points` did before it read bytes.
    static func referencePoints(_ size: String) -> (width: Double, height: Double)? {
        let parts = size.split(omittingEmptySubsequences: true) { $0 == "x" || $0 == "X" }
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite, w > 0, h > 0, w <= 100_000,
            h <= 100_000
        else { return nil }
        return (w, h)
    }

    static func referenceScale(_ scale: String) -> Int? {
        guard scale.hasSuffix("x"), let v = Int(scale.dropLast()), (1...3).contains(v) else { return nil }
        return v
    }
}
