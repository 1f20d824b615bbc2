import SystemCalls
import TestSupport
import Testing

@testable import ProjectModel

/// Which target holds a path, from the ancestor tables (`OwnershipIndex`), answers as testing
/// every listed path of every target did, on random projects whose paths nest, repeat across
/// targets, differ in case and are not all ASCII.
@Suite struct OwnershipIndexTests {
    static let parts = ["a", "b", "A", "App", "x.xcassets", "i.png", "I.PNG", "\u{E9}", "e\u{301}", "s.appiconset"]

    static func randomPath(_ rng: inout SeededGenerator, allowEmpty: Bool = true) -> String {
        let count = Int.random(in: (allowEmpty ? 0 : 1)...4, using: &rng)
        return (0..<count).map { _ in parts.randomElement(using: &rng)! }.joined(separator: "/")
    }

    static func oldOtherTarget(_ c: ProjectContext, _ path: String) -> String? {
        func depth(_ paths: [String]) -> Int {
            // Deeper by folders, not bytes: "é" and "e\u{301}" are one folder to the Mac that
            // builds (the old byte count made the decomposed spelling the deeper one).
            paths.filter { RelativePath.isWithin(path, $0) }.map { $0.isEmpty ? 0 : $0.split(separator: "/").count }.max() ?? -1
        }
        var best: (OtherTarget, Int)?
        for target in c.otherTargets {
            let d = depth(target.paths)
            if d >= 0, d > (best?.1 ?? -1) { best = (target, d) }
        }
        guard let (owner, ownerDepth) = best else { return nil }
        let own = depth(c.ownedPaths + (c.infoPlist.map { [RelativePath.parent($0)] } ?? []))
        return own >= ownerDepth ? nil : owner.name
    }

    static func oldBundled(_ c: ProjectContext, _ path: String, folded: Bool) -> Bool {
        let probe = folded ? path.lowercased() : path
        let within = { (resources: [String]) in resources.contains { RelativePath.isWithin(probe, folded ? $0.lowercased() : $0) } }
        return within(c.ownedPaths) || c.otherTargets.contains { within($0.resources) }
    }

    @Test func randomProjectsAnswerAsTheListsDo() {
        var rng = SeededGenerator(seed: 6301)
        for round in 0..<400 {
            var context = ProjectContext(directory: "")
            context.resourcesKnown = true
            context.ownedPaths = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Self.randomPath(&rng) }
            if Bool.random(using: &rng) { context.infoPlist = Self.randomPath(&rng, allowEmpty: false) + "/Info.plist" }
            for t in 0..<Int.random(in: 0...4, using: &rng) {
                var target = OtherTarget(
                    name: "T\(t)", kind: "app extension", platform: .iOS, productType: "com.apple.product-type.app-extension",
                    directory: Bool.random(using: &rng) ? Self.randomPath(&rng) : nil, notChecked: false)
                target.resources = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Self.randomPath(&rng) }
                context.otherTargets.append(target)
            }
            for _ in 0..<30 {
                let path = Self.randomPath(&rng, allowEmpty: false)
                #expect(context.otherTarget(containing: path)?.name == Self.oldOtherTarget(context, path), "round \(round): \(path)")
                #expect(
                    context.ownershipIndex.isBundled(path, folded: true) == Self.oldBundled(context, path, folded: true),
                    "round \(round): \(path)")
                #expect(
                    context.ownershipIndex.isBundled(path, folded: false) == Self.oldBundled(context, path, folded: false),
                    "round \(round): \(path)")
            }
        }
    }

    /// A context changed after a question answers from the change, not from the first answer.
    @Test func aChangedContextIsAskedAfresh() {
        var context = ProjectContext(directory: "")
        context.otherTargets = [
            OtherTarget(
                name: "Widget", kind: "app extension", platform: .iOS, productType: "com.apple.product-type.app-extension",
                directory: "Widget", notChecked: false)
        ]
        #expect(context.otherTarget(containing: "Widget/Assets.xcassets")?.name == "Widget")
        let copy = context
        context.ownedPaths = ["Widget/Assets.xcassets"]
        #expect(context.otherTarget(containing: "Widget/Assets.xcassets") == nil)
        #expect(copy.otherTarget(containing: "Widget/Assets.xcassets")?.name == "Widget")
        context.otherTargets[0].resources = ["Widget/Assets.xcassets/x"]
        #expect(context.otherTarget(containing: "Widget/Assets.xcassets/x/y")?.name == "Widget")
    }
}
