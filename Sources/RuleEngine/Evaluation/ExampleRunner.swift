import Findings
import Foundation
import ImageFacts
import RuleKit
import SystemCalls

/// Materialises a rule example in a temporary directory and runs the engine over it.
public enum ExampleRunner {
    public struct Outcome: Sendable {
        public let example: String
        public let diagnostics: [Diagnostic]
        /// Expected ids that were not reported, and forbidden ids that were.
        public let missing: [String]
        public let unexpected: [String]
        public var passed: Bool { missing.isEmpty && unexpected.isEmpty }
    }

    public static func run(_ example: RuleExample, rules base: RuleSet, registry: KindRegistry) throws -> Outcome {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(example.files, under: dir)
        var rules = base
        if let module = example.module {
            let extra = RuleModuleLoader.parse(module, file: "\(example.name) (example module)", registry: registry)
            if let e = extra.errors.first { throw e }
            rules = rules.overlaid(with: extra)
        }
        let engine = Engine(root: dir, rules: rules, registry: registry)
        engine.fullScan()
        let diagnostics = engine.diagnostics
        let ids = Set(diagnostics.map(\.rule))
        return Outcome(
            example: example.name, diagnostics: diagnostics,
            missing: example.triggers.filter { !ids.contains($0) }, unexpected: example.passes.filter { ids.contains($0) })
    }

    public static func write(_ files: [String: ExampleFile], under dir: String) throws {
        let fm = FileManager.default
        // Directories first, unreadable last (so their parents are still writable while writing).
        for (path, file) in files.sorted(by: { $0.key < $1.key }) {
            let full = dir + "/" + path
            try fm.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            switch file {
            case .directory: try fm.createDirectory(atPath: full, withIntermediateDirectories: true)
            case .text(let s): try Data(s.utf8).write(to: URL(fileURLWithPath: full))
            case .bytes(let b): try Data(b).write(to: URL(fileURLWithPath: full))
            case .png(let spec): try Data(PNGSynthesizer.encode(spec)).write(to: URL(fileURLWithPath: full))
            case .unreadable:
                try Data("secret".utf8).write(to: URL(fileURLWithPath: full))
                try FileSystem.changeMode(full, 0)
            }
        }
    }

    public static func makeTemporaryDirectory(prefix: String = "reswatch-example") throws -> String {
        try FileSystem.makeTemporaryDirectory(named: prefix + ".")
    }
}
