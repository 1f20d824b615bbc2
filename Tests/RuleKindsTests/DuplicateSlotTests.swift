import Foundation
import RuleEngine
import TestSupport
import Testing

/// icon.duplicate-slot keys an entry by idiom, size, scale, platform, appearances (in any order),
/// role and subtype: the same appearances listed in another order repeat a slot; one appearance
/// more or less does not.
@Suite struct DuplicateSlotTests {
    static func entry(_ appearances: [(String, String)]) -> String {
        let list = appearances.map { "{ \"appearance\" : \"\($0.0)\", \"value\" : \"\($0.1)\" }" }.joined(separator: ", ")
        return "    { \"idiom\" : \"iphone\", \"size\" : \"60x60\", \"scale\" : \"2x\""
            + (appearances.isEmpty ? "" : ", \"appearances\" : [ \(list) ]") + " }"
    }

    @Test func appearancesInAnotherOrderRepeatASlotAndOneMoreDoesNot() throws {
        let entries = [
            Self.entry([("luminosity", "dark"), ("contrast", "high")]),
            Self.entry([("contrast", "high"), ("luminosity", "dark")]),  // repeats images[0]
            Self.entry([("luminosity", "dark")]),
            Self.entry([]),
            Self.entry([]),  // repeats images[3]
        ]
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let engine = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            set + "/Contents.json": .text("{\n  \"images\" : [\n" + entries.joined(separator: ",\n") + "\n  ]\n}\n"),
        ]).engine()
        let duplicates = engine.diagnostics.filter { $0.rule == "icon.duplicate-slot" }.map(\.message).sorted()
        #expect(duplicates.count == 2, "\(duplicates)")
        #expect(duplicates.first?.hasPrefix("images[1] repeats") == true && duplicates.first?.hasSuffix("of images[0]") == true)
        #expect(duplicates.last?.hasPrefix("images[4] repeats") == true && duplicates.last?.hasSuffix("of images[3]") == true)
    }
}
