import Foundation
import ImageFacts
import RuleEngine
import TestSupport
import Testing

/// ≥ 500 random operations in bursts; after `sync` the daemon equals a fresh `reswatch check`.
@Suite(.serialized) struct ConvergenceTests {
    @Test(arguments: [11, 22, 33] as [UInt64])
    func randomOperationsConverge(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let tree = try TempTree([
            "P/.reswatch.yaml": .text("devices: [iphone]\n"),
            "P/A.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"f0.png\"}]}"),
        ])
        let daemon = try DaemonHarness(roots: [tree.path], arguments: ["--settle-ms", "5"])
        let fm = FileManager.default
        let dirs = ["P/A.xcassets/AppIcon.appiconset", "P/A.xcassets/B.appiconset", "P/A.xcassets/C.imageset", "P/Loose", "P/Deep/x/y"]
        var operations = 0
        while operations < 520 {
            for _ in 0..<Int.random(in: 5...30, using: &rng) {
                operations += 1
                let dir = dirs.randomElement(using: &rng)!
                let file = "\(dir)/f\(Int.random(in: 0..<4, using: &rng)).png"
                let abs = tree.path + "/" + file
                switch Int.random(in: 0..<9, using: &rng) {
                case 0, 1, 2:
                    let side = [1024, 120, 64, 1032].randomElement(using: &rng)!
                    let spec = PNGSpec(
                        width: side, height: side, color: [.rgb, .rgba, .palette, .gray].randomElement(using: &rng)!,
                        transparentPixels: Bool.random(using: &rng), truncateTo: Int.random(in: 0..<5, using: &rng) == 0 ? 40 : nil)
                    try? fm.createDirectory(atPath: tree.path + "/" + dir, withIntermediateDirectories: true)
                    try? Data(PNGSynthesizer.encode(spec)).write(to: URL(fileURLWithPath: abs))
                case 3: try? fm.removeItem(atPath: abs)
                case 4:
                    let json = [
                        "{\"images\":[{\"idiom\":\"universal\",\"platform\":\"ios\",\"size\":\"1024x1024\",\"filename\":\"f1.png\"}]}",
                        "{\"images\":[{\"idiom\":\"iphone\",\"size\":\"60x60\",\"scale\":\"2x\",\"filename\":\"f2.png\"}]}", "{ broken", "",
                    ].randomElement(using: &rng)!
                    try? fm.createDirectory(atPath: tree.path + "/" + dir, withIntermediateDirectories: true)
                    try? Data(json.utf8).write(to: URL(fileURLWithPath: tree.path + "/" + dir + "/Contents.json"))
                case 5:
                    let to = tree.path + "/" + dirs.randomElement(using: &rng)! + "/f\(Int.random(in: 0..<4, using: &rng)).png"
                    try? fm.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try? fm.removeItem(atPath: to)
                    try? fm.moveItem(atPath: abs, toPath: to)
                case 6:
                    let to = tree.path + "/P/A.xcassets/Moved\(Int.random(in: 0..<3, using: &rng)).appiconset"
                    if !fm.fileExists(atPath: to) { try? fm.moveItem(atPath: tree.path + "/" + dir, toPath: to) }
                case 7:
                    let from = tree.path + "/P/A.xcassets/Moved\(Int.random(in: 0..<3, using: &rng)).appiconset"
                    if fm.fileExists(atPath: from), !fm.fileExists(atPath: tree.path + "/" + dir) {
                        try? fm.moveItem(atPath: from, toPath: tree.path + "/" + dir)
                    }
                default:
                    try? fm.removeItem(atPath: tree.path + "/" + dir)
                }
            }
            if Bool.random(using: &rng) { usleep(UInt32.random(in: 0...20_000, using: &rng)) }
        }
        try daemon.sync()
        let live = try daemon.diagnosticLines()
        let cold = try coldCheckLines(tree.path)
        #expect(
            live == cold,
            "seed \(seed), \(operations) operations:\n only daemon: \(Set(live).subtracting(cold))\n only cold: \(Set(cold).subtracting(live))"
        )
        #expect(!cold.isEmpty, "the random tree should have findings to compare")
    }
}
