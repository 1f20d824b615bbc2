// swift-tools-version: 6.0
import Foundation
import PackageDescription

// `make fuzz` sets RESWATCH_FUZZ=1 and RESWATCH_FUZZER_LIB (libFuzzer without its main(), from the
// Swift toolchain's clang runtime): only reswatch-fuzz links it, and its main() hands over to it.
let environment = ProcessInfo.processInfo.environment
let fuzzing = environment["RESWATCH_FUZZ"] == "1"
// `-u`: the weak declaration alone would not pull the driver out of the archive.
let fuzzerLinkFlags =
    fuzzing ? ["-u", "LLVMFuzzerRunDriver", environment["RESWATCH_FUZZER_LIB"] ?? "", "-lstdc++"].flatMap { ["-Xlinker", $0] } : []

let package = Package(
    name: "reswatch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "reswatch", targets: ["reswatch"]),
        // The library surface, and the only `public` API: embed the engine (check a tree, list the
        // rules, render a report) or talk to a running daemon. The daemon, its socket server, the
        // LSP, repairs, status bars and the watcher are `package`: reached through the executable.
        .library(
            name: "ReswatchEngine",
            targets: [
                "Findings", "ImageFacts", "ProjectModel", "Reporting", "RuleEngine", "RuleKinds", "RuleKit", "ShippedRules", "SystemCalls",
            ]),
        .library(name: "ReswatchClient", targets: ["Findings", "ReswatchProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.24.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        // Tuist's Project.swift is read as Swift source (its literal arguments), never run.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.0"),
    ],
    targets: [
        // libinotifytools ships no pkg-config file: the module map names the headers and the library.
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools"),
        // The only code that calls libpng. setjmp/longjmp stay inside C; every entry point returns a status.
        .target(
            name: "CPNGShim",
            path: "Sources/CPNGShim",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]
        ),
        // The only code that calls libjpeg-turbo (repairs re-encode a JPEG under a .png name as a
        // PNG); like the PNG shim, its longjmp stays inside C.
        .target(
            name: "CJPEGShim", path: "Sources/CJPEGShim", cSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("jpeg")]),
        // Resampling for repairs: stb_image_resize (Debian's libstb-dev, header-only) compiled here.
        .target(name: "CImageResize", path: "Sources/CImageResize", cSettings: [.unsafeFlags(["-O2"])]),
        // Every libc call goes through one wrapper: errno read at once, EINTR retried, typed error.
        // posix_spawn's close-from action, which glibc declares only under _GNU_SOURCE.
        .target(name: "CSpawnShim", path: "Sources/CSpawnShim"),
        .target(name: "SystemCalls", dependencies: ["CSpawnShim"]),
        .target(name: "ImageFacts", dependencies: ["CImageResize", "CJPEGShim", "CPNGShim", "SystemCalls"]),
        // What a finding is (severity, diagnostic, module error): shared by the engine and the protocol.
        .target(name: "Findings", dependencies: ["SystemCalls"]),
        .target(
            name: "ProjectModel",
            dependencies: [
                "Findings", "SystemCalls", .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "Yams", package: "Yams"),
            ]
        ),
        // What a rule kind is written against (issue 58): the subject, the product it belongs to, the
        // files it reads and where its findings go. A kind imports this, never the engine or the daemon.
        .target(
            name: "RuleKit",
            dependencies: ["Findings", "ImageFacts", "ProjectModel", "SystemCalls", .product(name: "Yams", package: "Yams")]),
        .target(
            name: "RuleEngine",
            dependencies: ["Findings", "ImageFacts", "ProjectModel", "RuleKit", "ShippedRules", "SystemCalls"]
        ),
        // rules/*.yaml compiled into the binary by a build plugin: the binary needs no rules/ folder.
        .executableTarget(name: "RuleEmbedder"),
        .plugin(name: "EmbedShippedRules", capability: .buildTool(), dependencies: ["RuleEmbedder"], path: "Sources/EmbedShippedRules"),
        // Precompiled/: each module's composed tree (`make precompiled-rules`), embedded by the plugin.
        .target(name: "ShippedRules", exclude: ["Precompiled"], plugins: ["EmbedShippedRules"]),
        .target(name: "RuleKinds", dependencies: ["Findings", "ImageFacts", "ProjectModel", "RuleKit", "SystemCalls"]),
        .target(name: "Reporting", dependencies: ["Findings", "ImageFacts", "ProjectModel", "RuleEngine", "RuleKit", "SystemCalls"]),
        // `reswatch fix`: repairs planned from findings, carried out atomically with a journal.
        .target(name: "Repair", dependencies: ["Findings", "ImageFacts", "ProjectModel", "RuleEngine", "SystemCalls"]),
        // `check` and `fix` as library flows: the commands parse flags into their options value.
        .target(
            name: "Flows",
            dependencies: ["Findings", "ProjectModel", "Repair", "Reporting", "RuleEngine", "RuleKinds", "RuleKit", "SystemCalls"]),
        // Only the watcher imports libinotifytools; all its calls happen on one thread.
        .target(name: "Watcher", dependencies: ["CInotifyTools", "SystemCalls"]),
        // JSON-RPC messages shared by the daemon's server and the command-line clients.
        // It must not depend on the rule engine: a client (an editor, a status bar) links no libpng.
        .target(name: "ReswatchProtocol", dependencies: ["Findings", "SystemCalls"]),
        // `reswatch lsp`: LSP over stdio (NIOExtras' Content-Length framing), fed by the daemon.
        .target(
            name: "LanguageServer",
            dependencies: [
                "Findings", "ProjectModel", "Repair", "ReswatchProtocol", "SystemCalls", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // What a status bar shows (waybar, i3bar, polybar, tmux, templates) and `status --follow`.
        .target(name: "StatusBar", dependencies: ["ReswatchProtocol", "SystemCalls"]),
        .target(
            name: "Daemon",
            dependencies: [
                "Findings", "ProjectModel", "Repair", "ReswatchProtocol", "RuleEngine", "RuleKit", "SystemCalls", "Watcher",
                .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"), .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "SocketServer",
            dependencies: [
                "Daemon", "ReswatchProtocol", "SystemCalls", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "reswatch",
            dependencies: [
                "Daemon", "Findings", "Flows", "LanguageServer", "ProjectModel", "Repair", "Reporting", "ReswatchProtocol", "RuleEngine",
                "RuleKit",
                "RuleKinds", "SocketServer", "StatusBar", "SystemCalls", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Every reader of hostile input behind one entry (fuzzing, and the corpus replayed as tests).
        .target(
            name: "FuzzTargets",
            dependencies: [
                "ImageFacts", "LanguageServer", "ProjectModel", "ReswatchProtocol", "RuleEngine", "RuleKinds", "SocketServer",
                "SystemCalls", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        // `make fuzz` builds it with libFuzzer (-sanitize=fuzzer -DFUZZING); plainly built it replays inputs.
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "reswatch-fuzz",
            dependencies: ["CFuzzerDriver", "FuzzTargets"],
            swiftSettings: fuzzing ? [.define("FUZZING")] : [],
            linkerSettings: fuzzing ? [.unsafeFlags(fuzzerLinkFlags)] : []
        ),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"], exclude: ["Corpus"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"]),
        .testTarget(name: "ImageFactsTests", dependencies: ["ImageFacts", "SystemCalls", "TestSupport"]),
        .testTarget(
            name: "ProjectModelTests", dependencies: ["ImageFacts", "ProjectModel", "RuleEngine", "RuleKit", "SystemCalls", "TestSupport"]),
        .testTarget(
            name: "RuleEngineTests",
            dependencies: ["Findings", "ImageFacts", "RuleEngine", "RuleKinds", "RuleKit", "SystemCalls", "TestSupport"]),
        .testTarget(
            name: "RuleKindsTests",
            dependencies: [
                "Findings", "ImageFacts", "ProjectModel", "RuleEngine", "RuleKinds", "RuleKit", "ShippedRules", "SystemCalls",
                "TestSupport",
                .product(name: "Yams", package: "Yams"),
            ]),
        .testTarget(
            name: "ReportingTests",
            dependencies: ["Findings", "ImageFacts", "Reporting", "RuleEngine", "RuleKinds", "RuleKit", "TestSupport"]),
        .testTarget(
            name: "RepairTests",
            dependencies: ["Findings", "ImageFacts", "Repair", "RuleEngine", "RuleKinds", "RuleKit", "SystemCalls", "TestSupport"]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "Findings", "Flows", "ImageFacts", "ReswatchProtocol", "Reporting", "RuleEngine", "RuleKinds", "RuleKit", "SystemCalls",
                "TestSupport",
            ]),
        .testTarget(
            name: "FlowsTests",
            dependencies: [
                "Findings", "Flows", "ImageFacts", "ProjectModel", "RuleEngine", "RuleKinds", "RuleKit", "SystemCalls", "TestSupport",
            ]),
        .testTarget(name: "WatcherTests", dependencies: ["TestSupport", "Watcher"]),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "Daemon", "Findings", "ImageFacts", "ReswatchProtocol", "RuleEngine", "RuleKinds", "RuleKit", "SystemCalls", "TestSupport",
                "Watcher",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "SocketServerTests",
            dependencies: [
                "Daemon", "Findings", "ReswatchProtocol", "SocketServer", "SystemCalls", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOTestUtils", package: "swift-nio"),
            ]),
        .testTarget(name: "ReswatchProtocolTests", dependencies: ["Findings", "ReswatchProtocol", "TestSupport"]),
        .testTarget(
            name: "LanguageServerTests",
            dependencies: [
                "Findings", "ImageFacts", "LanguageServer", "Repair", "ReswatchProtocol", "RuleEngine", "RuleKit", "TestSupport",
            ],
            exclude: ["Neovim"]),
        .testTarget(name: "StatusBarTests", dependencies: ["Findings", "ReswatchProtocol", "StatusBar"]),
        .target(
            name: "TestSupport",
            dependencies: ["Flows", "ImageFacts", "ReswatchProtocol", "RuleEngine", "RuleKinds", "RuleKit", "SystemCalls", "Watcher"],
            path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
