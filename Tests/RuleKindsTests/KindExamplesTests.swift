import Findings
import Foundation
import ImageFacts
import ProjectModel
import RuleEngine
import RuleKinds
import RuleKit
import ShippedRules
import SystemCalls
import TestSupport
import Testing

/// Every kind's examples behave as labelled, against the shipped modules (SwiftLint's pattern).
@Suite struct KindExamplesTests {
    static let cases: [(String, RuleExample)] = BuiltinKinds.all.flatMap { kind in kind.examples.map { (kind.name, $0) } }

    @Test(arguments: 0..<cases.count)
    func exampleBehavesAsLabelled(_ index: Int) throws {
        let (kind, example) = Self.cases[index]
        let outcome = try ExampleRunner.run(example, rules: Repo.shippedRuleSet(), registry: BuiltinKinds.registry)
        // A failure points at the example's own line in its kind's file.
        let source = SourceLocation(fileID: example.fileID, filePath: example.filePath, line: example.line, column: 1)
        #expect(
            outcome.missing.isEmpty,
            "\(kind): '\(example.name)' should report \(outcome.missing); got \(outcome.diagnostics.map { "\($0.rule) \($0.path): \($0.message)" })",
            sourceLocation: source
        )
        #expect(
            outcome.unexpected.isEmpty,
            "\(kind): '\(example.name)' must not report \(outcome.unexpected); got \(outcome.diagnostics.map { "\($0.rule): \($0.message)" })",
            sourceLocation: source
        )
    }

    /// A failing example is reported at its own line: each records where it is written.
    @Test func everyExampleRecordsItsSourceLine() throws {
        for (kind, example) in Self.cases {
            #expect(example.filePath.contains("/Sources/RuleKinds/") && example.line > 0, "\(kind): '\(example.name)'")
            let source = try String(contentsOfFile: example.filePath, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            let written = source.indices.contains(example.line - 1) ? source[example.line - 1] : ""
            #expect(written.contains("RuleExample(") || written.contains(".init("), "\(kind): line \(example.line) is \(written)")
        }
        // Module examples point at their YAML file and line.
        let module = RuleModuleLoader.parse(
            "rules:\n  - kind: png-properties\nexamples:\n  - name: x\n    files: {a.png: {png: {width: 2, height: 2}}}\n    passes: [image.corrupt]\n",
            file: "/m.yaml", registry: BuiltinKinds.registry)
        let example = try #require(module.moduleExamples.first?.example)
        #expect(example.filePath == "/m.yaml" && example.line == 4)
    }

    @Test func everyKindHasTriggeringAndPassingExamples() {
        for kind in BuiltinKinds.all {
            #expect(kind.examples.contains { $0.isTriggering }, "\(kind.name) has no triggering example")
            #expect(kind.examples.contains { !$0.passes.isEmpty }, "\(kind.name) has no non-triggering example")
        }
    }

    @Test func everyReportedIdHasATriggeringExample() {
        for kind in BuiltinKinds.all {
            let triggered = Set(kind.examples.flatMap(\.triggers))
            for rule in kind.rules {
                #expect(triggered.contains(rule.id), "\(kind.name): \(rule.id) has no triggering example")
            }
        }
    }

    /// The registry is one explicit list; a kind file that is not in it is dead code.
    @Test func everyKindFileIsRegistered() throws {
        let dir = Repo.root + "/Sources/RuleKinds"
        let files = FileManager.default.enumerator(atPath: dir)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var declared: [String] = []
        for f in files {
            let text = try String(contentsOfFile: dir + "/" + f, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": RuleKind {") {
                if let name = line.split(separator: " ").first(where: { $0.hasSuffix("Kind:") }) {
                    declared.append(String(name.dropLast()))
                }
            }
        }
        let registered = Set(BuiltinKinds.all.map { String(describing: $0) })
        #expect(!declared.isEmpty)
        for name in declared { #expect(registered.contains(name), "\(name) is not in BuiltinKinds.all") }
    }

    @Test func shippedModulesLoadWithoutErrors() {
        let set = Repo.shippedRuleSet()
        #expect(set.errors.isEmpty, "\(set.errors)")
        #expect(set.rules.count >= 5)
    }
}

/// The ids this issue implements are in the contract and reported by shipped modules.
@Suite struct CatalogueContractTests {
    static let implemented = [
        "image.not-png", "image.corrupt", "image.cgbi", "image.interlaced", "image.not-rgb", "image.indexed", "image.16-bit",
        "icon.size-mismatch", "icon.missing-required", "icon.missing-recommended", "icon.marketing-missing",
        "icon.marketing-alpha", "icon.transparent", "icon.file-missing", "icon.unassigned", "icon.duplicate-slot",
        "icon.legacy-slot", "icon.set-missing", "catalog.contents-missing", "catalog.contents-invalid", "plist.parse-error",
        "plist.usage-description-empty", "plist.orientations", "plist.device-capabilities", "lproj.invalid-name",
        "settings.bundle-invalid", "launch.missing", "launch.storyboard-missing", "launch.images-deprecated",
        "plist.icon-keys-with-catalog", "plist.icon-name-missing", "plist.launch-image-entry", "icon.itunesartwork",
        "launch.size-mismatch", "launch.bad-name", "launch.iphone5-missing", "launch.landscape-asset-catalog",
        "plist.invalid-image-path", "lproj.image-mismatch", "icon.stray-template",
    ]

    @Test func implementedIdsMatchTheContract() throws {
        let spec = try String(contentsOfFile: Repo.contract, encoding: .utf8)
        let shipped = Dictionary(Repo.shippedRuleSet().allRuleInfos.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in Self.implemented {
            #expect(spec.contains("| \(id) |"), "\(id) is not in rules.md")
            let info = try #require(shipped[id], "\(id) is not reported by any shipped module")
            // The severity column of rules.md starts with the rule's default severity.
            let row = spec.split(separator: "\n").first { $0.hasPrefix("| \(id) |") }!
            let column = row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
            #expect(column.hasPrefix(info.severity.rawValue), "\(id): rules.md says '\(column)', code says \(info.severity)")
        }
        for info in EngineRules.all {
            let row = try #require(spec.split(separator: "\n").first { $0.hasPrefix("| \(info.id) |") }, "\(info.id) is not in rules.md")
            let column = row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
            #expect(column.hasPrefix(info.severity.rawValue), "\(info.id): rules.md says '\(column)', code says \(info.severity)")
        }
    }

    @Test func itmsCodesMatchTheContract() throws {
        let expected = [
            "image.corrupt": "ITMS-90013", "icon.marketing-missing": "ITMS-90704", "icon.marketing-alpha": "ITMS-90717",
            "icon.missing-required": "ITMS-90022", "plist.parse-error": "ITMS-90037", "image.16-bit": "ITMS-90682",
            "plist.usage-description-empty": "ITMS-90738", "plist.orientations": "ITMS-90474", "launch.iphone5-missing": "ITMS-90096",
            "plist.invalid-image-path": "ITMS-90032",
        ]
        let shipped = Dictionary(Repo.shippedRuleSet().allRuleInfos.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, code) in expected { #expect(shipped[id]?.code == code, "\(id)") }
    }
}

/// Every rule id of the contract (docs/spec/rules.md) is reported by a shipped rule and has a
/// triggering example.
@Suite struct ContractCoverageTests {
    @Test func everyContractIdIsImplementedWithExamples() throws {
        let spec = try String(contentsOfFile: Repo.contract, encoding: .utf8)
        let ids = spec.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| "), let cell = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces),
                cell.contains("."), cell == cell.lowercased(), !cell.contains(" ")
            else { return nil }
            return cell
        }
        #expect(ids.count >= 40, "rules.md lists \(ids.count) ids")
        let shipped = Set(Repo.shippedRuleSet().allRuleInfos.map(\.id))
        let triggered = Set(BuiltinKinds.all.flatMap { $0.examples.flatMap(\.triggers) })
        let passing = Set(BuiltinKinds.all.flatMap { $0.examples.flatMap(\.passes) })
        // The engine's own ids (io.*, config.*, project.*) are tested in CLITests against the binary.
        let engine = Set(EngineRules.all.map(\.id))
        for id in engine { #expect(ids.contains(id), "\(id) is reported by the engine but is not in the contract") }
        // And the other way: an id a shipped rule reports is in the contract.
        for id in shipped.sorted() { #expect(ids.contains(id), "\(id) is reported by a shipped rule but is not in the contract") }
        for id in ids where !engine.contains(id) {
            #expect(shipped.contains(id), "\(id) (rules.md) has no implementation in the shipped modules")
            #expect(triggered.contains(id), "\(id) has no triggering example")
            #expect(passing.contains(id), "\(id) has no non-triggering example")
        }
    }
}

/// The modules built into the binary are the files of rules/, byte for byte.
@Suite struct ShippedModulesTests {
    @Test func embeddedModulesAreTheRulesFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.shippedRules)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        #expect(ShippedRules.modules.map(\.name) == names)
        for module in ShippedRules.modules {
            let onDisk = try String(contentsOfFile: Repo.shippedRules + "/" + module.name, encoding: .utf8)
            #expect(module.text == onDisk, "\(module.name) differs from rules/\(module.name)")
        }
        let set = ShippedModules.ruleSet(registry: BuiltinKinds.registry)
        #expect(set.errors.isEmpty, "\(set.errors)")
        #expect(set.rules.allSatisfy { $0.source.hasPrefix("<built-in>/rules/") })
    }

    /// The built-in modules are composed without counting their values (they are no input): each
    /// is held to the budget every other module is held to here instead.
    @Test func embeddedModulesAreWithinTheValueBudget() {
        for module in ShippedRules.modules {
            guard case .success(let root?) = YAMLLimits.compose(module.text, bounded: true) else {
                Issue.record("\(module.name) does not compose within \(YAMLLimits.nodeBudget) values")
                continue
            }
            #expect(root.mapping?["rules"] != nil, "\(module.name)")
        }
        // A module from a directory is still counted: an alias bomb is refused, not expanded.
        var bomb = "x-0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        for level in 1...6 {
            let items = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
            bomb += "x-\(level): &l\(level) [\(items)]\n"
        }
        bomb += "rules: []\n"
        let loaded = RuleModuleLoader.parse(bomb, file: "/etc/reswatch/rules.d/bomb.yaml", registry: BuiltinKinds.registry)
        #expect(loaded.errors.contains { $0.message.contains("expands (through aliases)") }, "\(loaded.errors)")
        // Named like a built-in module but not its text: counted too.
        let named = RuleModuleLoader.parse(bomb, file: ShippedRules.displayPath("icon.yaml"), registry: BuiltinKinds.registry)
        #expect(named.errors.contains { $0.message.contains("expands (through aliases)") }, "\(named.errors)")
    }
}

/// RGB, no interlace and 8 bits are requirements for app icons (and launch images), not for
/// ordinary image sets: the severity follows the image's role.
@Suite struct ImageRoleSeverityTests {
    func severities(_ path: String, _ spec: PNGSpec) throws -> [String: Severity] {
        let tree = try TempTree([path: .png(spec), ".reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n")])
        var out: [String: Severity] = [:]
        for d in tree.engine().diagnostics where d.path == path && d.rule.hasPrefix("image.") { out[d.rule] = d.severity }
        return out
    }

    @Test func grayscaleInterlacedSixteenBit() throws {
        let icon = "A.xcassets/AppIcon.appiconset/i.png"
        let launch = "A.xcassets/LaunchImage.launchimage/l.png"
        let other = "A.xcassets/Logo.imageset/l.png"
        let gray = PNGSpec(width: 8, height: 8, color: .gray, interlaced: true)
        #expect(try severities(icon, gray)["image.not-rgb"] == .error)
        #expect(try severities(launch, gray)["image.not-rgb"] == .warning)
        #expect(try severities(other, gray)["image.not-rgb"] == .info)
        #expect(try severities(other, gray)["image.interlaced"] == .info)
        // A catalog icon's interlace and depth are actool's input, not what ships (issue 58); a
        // launch image's and a loose icon's ship as they are.
        #expect(try severities(icon, gray)["image.interlaced"] == .info)
        #expect(try severities(launch, gray)["image.interlaced"] == .warning)
        #expect(try severities(other, PNGSpec(width: 8, height: 8, bitDepth: 16))["image.16-bit"] == .info)
        #expect(try severities(icon, PNGSpec(width: 8, height: 8, bitDepth: 16))["image.16-bit"] == .info)
        #expect(try severities(launch, PNGSpec(width: 8, height: 8, bitDepth: 16))["image.16-bit"] == .warning)
        #expect(try severities(icon, PNGSpec(width: 8, height: 8, color: .palette))["image.indexed"] == .info, "a palette is RGB")
        #expect(try severities(other, PNGSpec(width: 8, height: 8, color: .palette))["image.indexed"] == nil)
    }
}

/// One defect, one finding, at the severity of what it breaks.
@Suite struct IconFileMissingSeverityTests {
    func findings(_ entries: [(String, String, String?, String?)], files: [String: ExampleFile]) throws -> [Diagnostic] {
        var tree = files
        tree["App/.reswatch.yaml"] = .text("devices: [iphone]\ndeployment-target: \"15.0\"\n")
        let images = entries.map { e in
            "{\"idiom\":\"\(e.0)\",\"size\":\"\(e.1)\"" + (e.2.map { ",\"scale\":\"\($0)\"" } ?? "")
                + (e.3.map { ",\"filename\":\"\($0)\"" } ?? "") + "}"
        }
        tree["App/Assets.xcassets/AppIcon.appiconset/Contents.json"] = .text("{\"images\":[\(images.joined(separator: ","))]}")
        return try TempTree(tree).engine().diagnostics.filter { $0.rule.hasPrefix("icon.") }
    }

    @Test func aMissingFileInARequiredSlotIsAnErrorAndInAnOptionalOneAWarning() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset/"
        let found = try findings(
            [
                ("iphone", "60x60", "2x", "required.png"), ("iphone", "40x40", "3x", "optional.png"),
                ("ios-marketing", "1024x1024", "1x", "m.png"),
            ],
            files: [set + "m.png": .png(PNGSpec(width: 1024, height: 1024))])
        let missing = Dictionary(
            found.filter { $0.rule == "icon.file-missing" }.map { (RelativePath.name($0.related.first ?? $0.path), $0.severity) },
            uniquingKeysWith: { a, _ in a })
        #expect(missing == ["required.png": .error, "optional.png": .warning])
        // Shown on the Contents.json line that names the file, with the missing file related.
        #expect(found.filter { $0.rule == "icon.file-missing" }.allSatisfy { $0.path == set + "Contents.json" && $0.line == 1 })
    }

    @Test func aCaseMismatchNamesBothFiles() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset/"
        let found = try findings(
            [("ios-marketing", "1024x1024", "1x", "Icon-1024.png")],
            files: [set + "Icon-1024.PNG": .png(PNGSpec(width: 1024, height: 1024))])
        let hit = try #require(found.first { $0.rule == "icon.file-missing" })
        #expect(hit.severity == .warning && hit.path == set + "Icon-1024.PNG")
        #expect(hit.message.contains("names Icon-1024.png") && hit.message.contains("the file is Icon-1024.PNG"))
        #expect(!found.contains { $0.rule == "icon.unassigned" || $0.rule == "icon.marketing-missing" }, "\(found.map(\.rule))")
    }
}

/// icon.transparent counts what a person sees through, and says how many and where.
@Suite struct IconTransparencyTests {
    func transparent(_ spec: PNGSpec) throws -> [String] {
        let set = "App/Assets.xcassets/AppIcon.appiconset/"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n"),
            set + "Contents.json": .text(
                "{\"images\":[{\"idiom\":\"iphone\",\"size\":\"60x60\",\"scale\":\"2x\",\"filename\":\"i.png\"},{\"idiom\":\"ios-marketing\",\"size\":\"1024x1024\",\"scale\":\"1x\",\"filename\":\"m.png\"}]}"
            ),
            set + "i.png": .png(spec), set + "m.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        return tree.engine().diagnostics.filter { $0.rule == "icon.transparent" }.map(\.message)
    }

    @Test func nearlyOpaqueCornerPixelsAreNotADefect() throws {
        var corner = PNGSpec(width: 120, height: 120, color: .rgba, transparentPixels: true)
        corner.transparentAlpha = 250
        #expect(try transparent(corner).isEmpty, "alpha 250 in a corner: hidden and nearly opaque")
        corner.transparentAlpha = 0
        #expect(try transparent(corner).isEmpty, "fully transparent, but in the masked corner")
    }

    @Test func aSeeThroughHoleIsReportedWithItsPlace() throws {
        var hole = PNGSpec(width: 120, height: 120, color: .rgba, transparentPixels: true)
        hole.transparentAt = (60, 61)
        hole.transparentAlpha = 100
        let messages = try transparent(hole)
        #expect(messages == ["app icon i.png has 1 see-through pixel (alpha below 230 of 255) at (60, 61) (iphone 60@2x)"])
        var interlaced = hole
        interlaced.interlaced = true
        #expect(try transparent(interlaced) == messages, "the same pixel through Adam7 passes")
    }
}
