// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "reswatch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "reswatch", targets: ["reswatch"])
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        // libinotifytools ships no pkg-config file: the module map names the headers and the library.
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools"),
        // The only code that calls libpng. setjmp/longjmp stay inside C; every entry point returns a status.
        .target(
            name: "CPNGShim",
            path: "Sources/CPNGShim",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
        ),
        // Every libc call goes through one wrapper: errno read at once, EINTR retried, typed error.
        .target(name: "SystemCalls"),
        .target(name: "ImageFacts", dependencies: ["CPNGShim", "SystemCalls"]),
        .target(name: "ProjectModel", dependencies: ["SystemCalls", .product(name: "Yams", package: "Yams")]),
        .target(
            name: "RuleEngine",
            dependencies: ["ImageFacts", "ProjectModel", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "RuleKinds", dependencies: ["RuleEngine", "ImageFacts", "ProjectModel"]),
        .target(name: "Reporting", dependencies: ["RuleEngine"]),
        .executableTarget(
            name: "reswatch",
            dependencies: [
                "RuleEngine", "RuleKinds", "Reporting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "ImageFactsTests", dependencies: ["ImageFacts", "TestSupport"]),
        .testTarget(name: "ProjectModelTests", dependencies: ["ProjectModel", "TestSupport"]),
        .testTarget(name: "RuleEngineTests", dependencies: ["RuleEngine", "RuleKinds", "TestSupport"]),
        .testTarget(name: "RuleKindsTests", dependencies: ["RuleKinds", "RuleEngine", "TestSupport"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "RuleEngine", "RuleKinds", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
        .target(name: "TestSupport", dependencies: ["RuleEngine", "RuleKinds"], path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
