import Findings
import Foundation
import ImageFacts
import RuleEngine
import RuleKit
import TestSupport
import Testing

/// How an app icon set's entry finds its file: by its exact name, else by a name that differs
/// only in case (a warning naming both), else icon.file-missing, an error for a required slot and
/// a warning for an optional one.
@Suite struct IconFileLookupTests {
    static let set = "App/Assets.xcassets/AppIcon.appiconset"

    static func contents(_ entries: [(size: String, scale: String, file: String)]) -> ExampleFile {
        let items = entries.map {
            "    { \"idiom\" : \"iphone\", \"size\" : \"\($0.size)\", \"scale\" : \"\($0.scale)\", \"filename\" : \"\($0.file)\" }"
        }
        return .text("{\n  \"images\" : [\n" + items.joined(separator: ",\n") + "\n  ]\n}\n")
    }

    static func png(_ side: Int) -> ExampleFile { .png(PNGSpec(width: side, height: side, color: .rgb)) }

    static func findings(_ files: [String: ExampleFile]) throws -> [Diagnostic] {
        var tree = files
        tree["App/.reswatch.yaml"] = .text("devices: [iphone]\ndeployment-target: \"15.0\"\n")
        return try TempTree(tree).engine().diagnostics.filter { $0.rule == "icon.file-missing" }
    }

    /// Two files whose names differ only in case, and an entry naming a third spelling: the finding
    /// names the first of the two in byte order, on every run and in every process.
    @Test func aNameThatDiffersInCaseFindsTheFirstSpellingInOrder() throws {
        let found = try Self.findings([
            Self.set + "/Contents.json": Self.contents([("60x60", "2x", "icon-120.png")]),
            Self.set + "/Icon-120.png": Self.png(120),
            Self.set + "/ICON-120.png": Self.png(120),
        ])
        #expect(found.count == 1, "\(found.map(\.message))")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.path == Self.set + "/ICON-120.png", "\(found.map(\.path))")
        #expect(found.first?.message.contains("the file is ICON-120.png (found only on a case-insensitive disk)") == true)
    }

    /// An exact name wins over one that differs in case, and nothing is reported.
    @Test func anExactNameIsNotReported() throws {
        let found = try Self.findings([
            Self.set + "/Contents.json": Self.contents([("60x60", "2x", "icon-120.png")]),
            Self.set + "/icon-120.png": Self.png(120),
            Self.set + "/ICON-120.png": Self.png(120),
        ])
        #expect(found.isEmpty, "\(found.map(\.message))")
    }

    /// A missing file in a slot the iPhone table requires (60@2x) is an error with the code of the
    /// rejection; one in a slot it does not require (20@2x, notifications) is a warning.
    @Test func aMissingFileIsAnErrorOnlyInARequiredSlot() throws {
        let found = try Self.findings([
            Self.set + "/Contents.json": Self.contents([("60x60", "2x", "gone-120.png"), ("20x20", "2x", "gone-40.png")])
        ])
        // Both are said at their entry's line of Contents.json (the file they name is not there).
        let required = found.first { $0.message.contains("names gone-120.png") }
        let optional = found.first { $0.message.contains("names gone-40.png") }
        #expect(found.allSatisfy { $0.path == Self.set + "/Contents.json" }, "\(found.map(\.path))")
        #expect(required?.line == 3 && optional?.line == 4)
        #expect(required?.severity == .error && required?.code == "ITMS-90022", "\(String(describing: required))")
        #expect(required?.message.hasSuffix("(a required slot: App Store Connect rejects a build without it)") == true)
        #expect(optional?.severity == .warning && optional?.code == nil, "\(String(describing: optional))")
        #expect(optional?.message.hasSuffix("(an optional slot)") == true)
    }
}
