import Findings
import Foundation
import ImageFacts
import RuleEngine
import RuleKinds
import RuleKit
import TestSupport
import Testing

@Suite struct RuleModuleTests {
    let registry = BuiltinKinds.registry

    @Test func yamlSyntaxErrorIsReportedWithFileAndLine() {
        let set = RuleModuleLoader.parse(
            "module: x\nrules:\n  - kind: png-properties\n    full-decode: [unclosed\n", file: "/m.yaml", registry: registry)
        #expect(set.rules.isEmpty)
        let e = set.errors.first
        #expect(e?.file == "/m.yaml" && e?.line != nil && e?.message.contains("YAML syntax error") == true)
    }

    @Test func unknownKindAndBadParameterDoNotStopOtherEntries() {
        let text = """
            module: team
            rules:
              - kind: no-such-kind
              - kind: png-properties
                full-decode: sometimes
              - kind: plist-syntax
              - kind: asset-set-contents
                colour: blue
            """
        let set = RuleModuleLoader.parse(text, file: "team.yaml", registry: registry)
        #expect(set.rules.map(\.kindName) == ["plist-syntax"])
        #expect(set.errors.map(\.line) == [3, 5, 8])
        #expect(set.errors[0].message.contains("unknown kind 'no-such-kind'"))
        #expect(set.errors[1].message.contains("full-decode: expected true or false"))
        #expect(set.errors[2].message.contains("unknown parameter 'colour'"))
    }

    @Test func brokenModuleDoesNotStopOtherModules() throws {
        let dir = try TempTree([
            "a.yaml": .text("rules: [ {kind: plist-syntax} ]\n"), "b.yaml": .text(": : :\n"),
            "c.yml": .text("rules:\n  - kind: png-properties\n"),
        ])
        let set = RuleSources(builtIn: [], optionalDirectories: [dir.path, "/nonexistent/dir"]).load(registry: registry)
        #expect(Set(set.rules.map(\.kindName)) == ["plist-syntax", "png-properties"])
        #expect(set.errors.count == 1 && set.errors[0].file.hasSuffix("b.yaml"))
    }

    @Test func laterModuleWithTheSameRuleIdReplacesTheEarlier() throws {
        let first = try TempTree(["images.yaml": .text("rules:\n  - kind: png-properties\n")])
        let second = try TempTree(["mine.yaml": .text("rules:\n  - kind: png-properties\n    full-decode: true\n")])
        let set = RuleSources(builtIn: [], requiredDirectories: [first.path, second.path]).load(registry: registry)
        #expect(set.rules.count == 1 && set.rules[0].source.hasPrefix(second.path))
    }

    @Test func standardSourcesInOrder() {
        let builtIn = [ModuleFile(path: "<built-in>/rules/a.yaml", text: .success("rules: []\n"))]
        let sources = RuleSources.standard(builtIn: builtIn, environment: ["XDG_CONFIG_HOME": "/cfg"], extra: ["/x"])
        #expect(sources.baseDirectory == nil && sources.files().first == builtIn[0])
        #expect(sources.directories == ["/etc/reswatch/rules.d", "/cfg/reswatch/rules.d", "/x"])
        #expect(RuleSources.standard(builtIn: [], environment: ["HOME": "/h"]).directories[1] == "/h/.config/reswatch/rules.d")
        let overridden = RuleSources.standard(builtIn: builtIn, environment: ["RESWATCH_SHIPPED_RULES": "/dev/rules"])
        #expect(overridden.directories.first == "/dev/rules" && !overridden.files().contains(builtIn[0]))
    }

    @Test func aMissingRequiredDirectoryIsAnErrorAndAMissingOptionalOneIsNot() {
        let set = RuleSources(builtIn: [], optionalDirectories: ["/nonexistent/etc"], requiredDirectories: ["/nonexistent/rules"])
            .load(registry: registry)
        #expect(set.errors.map(\.file) == ["/nonexistent/rules"])
        #expect(set.errors.first?.message.contains("No such file or directory") == true)
    }

    @Test func projectModulesApplyToTheirProjectOnly() throws {
        let tree = try TempTree([
            "A/.reswatch.yaml": .text("devices: [iphone]\n"),
            "A/.reswatch/rules/strict.yaml": .text(
                "rules:\n  - kind: exec\n    argv: [/bin/echo, '{\"diagnostics\":[{\"rule\":\"team.a\",\"message\":\"hi\"}]}']\n    subjects: [project]\n    rules: [{id: team.a}]\n"
            ),
            "B/.reswatch.yaml": .text("devices: [iphone]\n"),
        ])
        let engine = tree.engine(allowProjectExec: true)
        let hits = engine.diagnostics.filter { $0.rule == "team.a" }
        #expect(hits.map(\.project) == ["A"])
        // Editing the project's module re-loads it.
        try tree.write(["A/.reswatch/rules/strict.yaml": .text("rules: [ {kind: nope} ]\n")])
        engine.apply(changedPaths: ["A/.reswatch/rules/strict.yaml"])
        #expect(!engine.diagnostics.contains { $0.rule == "team.a" })
        #expect(engine.ruleErrors.contains { $0.message.contains("unknown kind 'nope'") })
    }

    /// A project's `.reswatch/` folder, at any depth, is configuration: nothing in it is a resource.
    @Test func nothingInAProjectsModuleFolderIsJudged() throws {
        let gray = ExampleFile.png(PNGSpec(width: 4, height: 4, color: .gray))
        let tree = try TempTree([
            "A/.reswatch.yaml": .text("devices: [iphone]\n"),
            "A/.reswatch/Assets.xcassets/X.imageset/gray.png": gray,
            "A/Sub/.reswatch/Y.imageset/gray.png": gray,
            "A/Assets.xcassets/Z.imageset/gray.png": gray,
        ])
        let engine = tree.engine()
        #expect(engine.diagnostics.filter { $0.rule == "image.not-rgb" }.map(\.path) == ["A/Assets.xcassets/Z.imageset/gray.png"])
    }

    @Test func projectSettingsDisableRegradeAndIgnore() throws {
        let set = "App/Assets.xcassets/X.imageset"
        var files: [String: ExampleFile] = [
            set + "/Contents.json": .text("{\"images\":[]}"),
            set + "/gray.png": .png(PNGSpec(width: 4, height: 4, color: .gray)),
            set + "/lace.png": .png(PNGSpec(width: 4, height: 4, interlaced: true)),
            "App/Legacy/Old.imageset/Contents.json": .text("{ broken"),
        ]
        files["App/.reswatch.yaml"] = .text(
            "rules:\n  disable: [image.interlaced]\n  severity: {image.not-rgb: error}\nignore: [\"Legacy/**\"]\n")
        let engine = try TempTree(files).engine()
        let d = engine.diagnostics
        #expect(!d.contains { $0.rule == "image.interlaced" })
        #expect(d.first { $0.rule == "image.not-rgb" }?.severity == .error)
        #expect(!d.contains { $0.path.contains("Legacy") })
    }
}

@Suite struct ExecKindTests {
    /// The rule programs of one test, removed with it (they were left in /tmp).
    let scripts: TempTree

    init() throws { scripts = try TempTree() }

    func run(_ module: String) throws -> [Diagnostic] {
        let example = RuleExample(
            "exec", files: ["A.imageset/a.png": .png(PNGSpec(width: 4, height: 4)), "A.imageset/Contents.json": .text("{\"images\":[]}")],
            passes: [], module: module)
        return try ExampleRunner.run(example, rules: RuleSet(), registry: BuiltinKinds.registry).diagnostics
    }

    func script(_ body: String) throws -> String {
        let path = scripts.path + "/reswatch-exec-\(UUID().uuidString).sh"
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    @Test func receivesTheSubjectAsJSONOnStdin() throws {
        let s = try script(
            "read line; path=$(printf '%s' \"$line\" | sed 's/.*\"path\":\"\\([^\"]*\\)\".*/\\1/'); printf '{\"diagnostics\":[{\"rule\":\"t.x\",\"message\":\"saw %s\",\"severity\":\"error\",\"line\":4}]}' \"$path\""
        )
        let d = try run("rules:\n  - kind: exec\n    argv: [\(s)]\n    rules: [{id: t.x, severity: warning}]\n")
        #expect(d.count == 1 && d[0].message == "saw A.imageset/a.png" && d[0].severity == .error && d[0].line == 4)
    }

    @Test func crashTimeoutGarbageAndUndeclaredIdsBecomeDiagnostics() throws {
        let cases: [(String, String)] = [
            ("kill -SEGV $$", "crashed"),
            ("exit 3", "exited with status 3"),
            ("sleep 5", "timed out after 300 ms"),
            ("echo '<html>'", "not JSON"),
            ("echo '{\"diagnostics\":[{\"rule\":\"other.id\",\"message\":\"m\"}]}'", "undeclared rule id 'other.id'"),
        ]
        for (body, expected) in cases {
            let s = try script(body)
            let d = try run("rules:\n  - kind: exec\n    argv: [\(s)]\n    timeout-ms: 300\n    rules: [{id: t.x}]\n")
            #expect(d.count == 1 && d[0].rule == "rules.exec-failed" && d[0].message.contains(expected), "\(body): \(d.map(\.message))")
        }
        let missing = try run("rules:\n  - kind: exec\n    argv: [/nonexistent/program]\n    rules: [{id: t.x}]\n")
        #expect(missing.first?.message.contains("could not start") == true)
    }

    @Test func moduleValidation() {
        let set = RuleModuleLoader.parse("rules:\n  - kind: exec\n    argv: [/bin/true]\n", file: "e.yaml", registry: BuiltinKinds.registry)
        #expect(set.errors.first?.message.contains("declare the ids") == true)
        let bad = RuleModuleLoader.parse(
            "rules:\n  - kind: exec\n    argv: [/bin/true]\n    subjects: [files]\n    rules: [{id: a}]\n", file: "e.yaml",
            registry: BuiltinKinds.registry)
        #expect(bad.errors.first?.message.contains("unknown 'files'") == true)
    }
}
