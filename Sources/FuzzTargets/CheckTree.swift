import Foundation
import ImageFacts
import RuleEngine
import RuleKinds
import Synchronization
import SystemCalls

/// A small app on disk whose one variable file is the fuzz input; the engine runs over it as
/// `reswatch check` would. Made once per process (under the temporary directory) and removed at exit.
final class CheckTree: Sendable {
    static let shared = CheckTree()

    /// The files an input can become, picked by its first byte.
    static let files = [
        "App/Assets.xcassets/AppIcon.appiconset/Contents.json", "App/Info.plist",
        "App/Assets.xcassets/LaunchImage.launchimage/Contents.json", ".reswatch.yaml", "App.xcodeproj/project.pbxproj",
        "App/Assets.xcassets/Logo.imageset/Contents.json",
    ]

    let root: String
    let rules: RuleSet
    /// One input at a time: the tree is shared (tests run in parallel).
    let turn = Mutex(())

    init() {
        root = Self.directory()
        rules = ShippedModules.ruleSet(registry: BuiltinKinds.registry)
        let fm = FileManager.default
        try? fm.createDirectory(atPath: root + "/App/Assets.xcassets/AppIcon.appiconset", withIntermediateDirectories: true)
        try? fm.createDirectory(atPath: root + "/App/Assets.xcassets/Logo.imageset", withIntermediateDirectories: true)
        let icon = Data(PNGSynthesizer.encode(PNGSpec(width: 120, height: 120)))
        _ = fm.createFile(atPath: root + "/App/Assets.xcassets/AppIcon.appiconset/Icon-60@2x.png", contents: icon)
        _ = fm.createFile(atPath: root + "/App/Assets.xcassets/Logo.imageset/logo.png", contents: icon)
        atexit { try? FileManager.default.removeItem(atPath: CheckTree.directory()) }
    }

    static func directory() -> String { NSTemporaryDirectory() + "reswatch-fuzz-\(getpid())" }

    func run(_ data: [UInt8]) -> FuzzOutcome {
        turn.withLock { _ in runAlone(data) }
    }

    private func runAlone(_ data: [UInt8]) -> FuzzOutcome {
        guard let first = data.first else { return .rejected("empty input") }
        // Only the chosen file exists (and its folder, for the two folders nothing else needs).
        for file in Self.files { FileSystem.removeFile(root + "/" + file) }
        FileSystem.removeDirectory(root + "/App/Assets.xcassets/LaunchImage.launchimage")
        FileSystem.removeDirectory(root + "/App.xcodeproj")
        let file = Self.files[Int(first) % Self.files.count]
        try? FileManager.default.createDirectory(
            atPath: root + "/" + (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/" + file, contents: Data(data.dropFirst()))
        let engine = Engine(root: root, rules: rules, registry: BuiltinKinds.registry, incremental: false)
        let delta = engine.fullScan()
        // What the input itself came to: the errors about its file or the folder it is in.
        let folder = (file as NSString).deletingLastPathComponent
        let about = delta.added.filter { $0.severity == .error && ($0.path == file || $0.path.hasPrefix(folder)) }
        return about.isEmpty ? .accepted : .rejected(about.map { "\($0.rule): \($0.message)" }.sorted().joined(separator: "; "))
    }
}
