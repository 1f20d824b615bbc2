import ProjectModel
import RuleEngine
import TestSupport
import Testing

/// Where a context's settings came from answers as the dictionary it replaced would, and the
/// devices of projects that name the same ones are one shared set.
@Suite struct ContextSourcesTests {
    static let names = ["devices", "deployment-target", "distribution", "app-icon", "launch-image", "info-plist", "other"]
    static let sources: [ContextSource?] = [.config, .commandLine, .pbxproj, .infoPlist, .defaults, nil]

    /// 5,000 random sets and clears over the five settings and two other names, checked after
    /// each step against a dictionary doing the same: each name, equality and hashing, and the
    /// whole as a dictionary (what `check --format json` writes).
    @Test func randomChangesMatchADictionary() {
        var sources: ContextSources = ["devices": .defaults, "deployment-target": .defaults, "distribution": .defaults]
        var reference: [String: ContextSource] = ["devices": .defaults, "deployment-target": .defaults, "distribution": .defaults]
        var generator = SeededGenerator(seed: 5)
        for step in 0..<5_000 {
            let name = Self.names.randomElement(using: &generator)!
            let source = Self.sources.randomElement(using: &generator)!
            sources[name] = source
            reference[name] = source
            #expect(sources[name] == reference[name] && sources.dictionary == reference, "step \(step)")
            var rebuilt = ContextSources()
            for (n, s) in reference { rebuilt[n] = s }
            #expect(rebuilt == sources && rebuilt.hashValue == sources.hashValue, "step \(step): equal when the dictionaries are")
        }
        #expect(ContextSources().dictionary.isEmpty && ContextSources()["devices"] == nil)
    }

    /// Every set of devices comes back equal; projects that say the same devices hold one set.
    @Test func devicesAreSharedSets() throws {
        for devices in [Set<Device>(), [.iphone], [.ipad], [.iphone, .ipad]] {
            #expect(Device.shared(devices) == devices)
        }
        let tree = try TempTree([
            "A/.reswatch.yaml": .text("devices: [iphone]\n"), "A/Info.plist": .text("<plist><dict/></plist>"),
            "B/.reswatch.yaml": .text("devices: [iphone]\n"), "B/Info.plist": .text("<plist><dict/></plist>"),
            "C/Info.plist": .text("<plist><dict/></plist>"), "D/Info.plist": .text("<plist><dict/></plist>"),
        ])
        let contexts = tree.engine().projectContexts
        func storage(_ project: String) throws -> UInt {
            var devices = try #require(contexts.first { $0.directory == project }).devices
            return withUnsafeBytes(of: &devices) { $0.load(as: UInt.self) }
        }
        #expect(contexts.first { $0.directory == "A" }?.devices == [.iphone])
        #expect(try storage("A") == storage("B"), "two .reswatch.yaml files naming iphone: one set")
        #expect(try storage("C") == storage("D"), "two projects with the default devices: one set")
    }
}
