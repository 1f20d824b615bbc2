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
}
