import Foundation
import RuleEngine
import TestSupport
import Testing

/// Every input costs bounded work (issue 10, item 4): bombs of a few hundred bytes are findings,
/// not minutes of CPU and gigabytes of memory. Run against the real binary under `timeout`.
@Suite struct BoundedWorkTests {
    func check(_ tree: TempTree) throws -> CommandResult {
        try runCommand("/usr/bin/timeout", ["60", Repo.binary, "check", "--no-color", tree.path])
    }

    @Test func aBinaryPlistOfSharedReferencesIsRefused() throws {
        let bomb = BinaryPlistBuilder.sharedReferenceBomb(levels: 7)
        #expect(bomb.count < 200)
        let tree = try TempTree(["App/.reswatch.yaml": .text("devices: [iphone]\n"), "App/Info.plist": .bytes(bomb)])
        let result = try check(tree)
        #expect(result.status == 1, "exit \(result.status) (124: it ran away)")
        #expect(result.stdout.contains("expands to more than 1000000 values"), "\(result.stdout)")
    }

    /// Placing findings costs a lookup each: a Contents.json naming 20,000 missing files (2 MB)
    /// took over ten minutes when every finding scanned the file for its line and column.
    @Test func manyFindingsInOneLargeFileArePlacedWithoutRescanningIt() throws {
        let entries = (0..<20_000).map {
            "    {\n      \"filename\" : \"f\($0).png\",\n      \"idiom\" : \"iphone\",\n      \"scale\" : \"2x\",\n      \"size\" : \"60x60\"\n    }"
        }
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": .text(
                "{\n  \"images\" : [\n" + entries.joined(separator: ",\n") + "\n  ]\n}\n"),
        ])
        let result = try runCommand("/usr/bin/timeout", ["60", Repo.binary, "check", "--format", "json", tree.path])
        #expect(result.status == 1, "exit \(result.status) (124: it ran away)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let missing = (object["diagnostics"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "icon.file-missing" }
        #expect(missing.count == 20_000)
        // Entry i starts on line 3 + 6i; its "filename" is the next line, at column 7.
        let last = try #require(missing.first { ($0["message"] as? String)?.hasPrefix("Contents.json names f19999.png ") == true })
        #expect(last["line"] as? Int == 4 + 6 * 19_999 && last["column"] as? Int == 7)
    }

    /// Found by `make fuzz`: Foundation crashes bridging a set of dictionaries (SIGSEGV).
    @Test func aBinaryPlistHoldingASetIsAFindingNotACrash() throws {
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"), "App/Info.plist": .bytes(BinaryPlistBuilder.setOfDictionaries()),
        ])
        let result = try check(tree)
        #expect(result.status == 1, "exit \(result.status) (139: it crashed)")
        #expect(result.stdout.contains("holds a set, which a property list of an app never has"), "\(result.stdout)")
    }

    @Test(arguments: [
        "a: &a x\nb:\n  ? *a\n  : 1\n", "a: &a x\n*a : 1\n", "a: &a x\nb: {*a: 1}\n",
        // Other line ends the YAML parser knows: CRLF, CR, NEL, LS.
        "a: &a x\r\n*a : 1\r\n", "a: &a x\r*a : 1\r", "a: &a x\u{85}*a : 1\n", "a: &a x\u{2028}*a : 1\n",
        "a: &a x\r\nb:\r\n  - ? *a\r\n    : 1\r\n",
    ])
    func aliasesAsKeysAreRefused(_ yaml: String) throws {
        let tree = try TempTree([".reswatch.yaml": .text(yaml)])
        let result = try check(tree)
        #expect(result.status == 2 && result.stdout.contains("an alias used as a mapping key"), "\(result.stdout)")
    }

    @Test func aValueAliasBombIsRefused() throws {
        var yaml = "x0: &x0 [a, a, a, a, a, a, a, a, a, a]\n"
        for i in 1..<10 { yaml += "x\(i): &x\(i) [\(Array(repeating: "*x\(i - 1)", count: 10).joined(separator: ", "))]\n" }
        let tree = try TempTree([".reswatch.yaml": .text(yaml)])
        let result = try check(tree)
        #expect(result.status == 2 && result.stdout.contains("expands (through aliases) to more than"), "\(result.stdout)")
        let module = try TempTree(["bomb.yaml": .text(yaml + "rules: []\n")])
        let rules = try runCommand("/usr/bin/timeout", ["60", Repo.binary, "rules", "check", module.path + "/bomb.yaml"])
        #expect(rules.status == 1 && rules.stdout.contains("expands (through aliases)"), "\(rules.stdout)")
    }

    @Test func aContentsJsonBeyondItsLimitIsNotReadAndSaysSo() throws {
        let big = "{\"images\":[" + Array(repeating: "{\"idiom\":\"universal\"}", count: 250_000).joined(separator: ",") + "]}"
        let tree = try TempTree(["A.imageset/Contents.json": .text(big)])
        let result = try check(tree)
        #expect(result.status == 1)
        #expect(result.stdout.contains("larger than 4 MiB, the limit for this kind of file: not read [io.unreadable]"), "\(result.stdout)")
    }
}
