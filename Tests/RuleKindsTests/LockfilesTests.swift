import Foundation
import RuleKit
import TestSupport
import Testing

@testable import RuleKinds

/// Each lockfile format as the tools write it, and hostile text giving pins or nothing, never a crash.
@Suite struct LockfilesTests {
    @Test func podfileLockPinsWithTheirLines() {
        let text =
            "PODS:\n  - Alamofire (5.8.1)\n  - GTMSessionFetcher/Core (2.3.0):\n    - GTMSessionFetcher/Full\n\nDEPENDENCIES:\n  - Kingfisher (~> 7.0)\n"
        let pins = Lockfiles.podfileLock(text)
        #expect(
            pins == [
                LockedDependency(name: "Alamofire", version: "5.8.1", line: 2),
                LockedDependency(name: "GTMSessionFetcher", version: "2.3.0", line: 3),
            ], "subspecs folded into their pod; DEPENDENCIES are constraints, not pins")
    }

    @Test func packageResolvedFormatsOneToThree() {
        let v1 =
            "{\"object\":{\"pins\":[{\"package\":\"Alamofire\",\"repositoryURL\":\"https://github.com/Alamofire/Alamofire.git\",\"state\":{\"version\":\"5.8.0\"}}]},\"version\":1}"
        let v3 =
            "{\n\"originHash\":\"x\",\n\"pins\":[\n{\"identity\":\"kingfisher\",\"state\":{\"revision\":\"abc\"}},\n{\"identity\":\"alamofire\",\n\"state\":{\"version\":\"5.10.2\"}}],\"version\":3}"
        #expect(Lockfiles.packageResolved(Array(v1.utf8)) == [LockedDependency(name: "alamofire", version: "5.8.0", line: 1)])
        #expect(
            Lockfiles.packageResolved(Array(v3.utf8)) == [LockedDependency(name: "alamofire", version: "5.10.2", line: 5)],
            "a branch pin has no version")
        for hostile in ["", "[]", "{\"pins\": 7}", "{\"pins\":[{\"identity\":3}]}", String(repeating: "[", count: 10_000)] {
            #expect(Lockfiles.packageResolved(Array(hostile.utf8)).isEmpty)
        }
    }

    @Test func cartfileResolvedAndVersionOrder() {
        let text =
            "github \"Alamofire/Alamofire\" \"5.8.0\"\ngit \"https://github.com/onevcat/Kingfisher.git\" \"v7.9.1\"\nbinary \"x.json\" \"1.0\"\n"
        #expect(
            Lockfiles.cartfileResolved(text) == [
                LockedDependency(name: "alamofire/alamofire", version: "5.8.0", line: 1),
                LockedDependency(name: "onevcat/kingfisher", version: "7.9.1", line: 2),
            ])
        #expect(Lockfiles.isBelow("5.8.1", "5.9.0") == true && Lockfiles.isBelow("5.10.0", "5.9.0") == false)
        #expect(
            Lockfiles.isBelow("5.9", "5.9.0") == false && Lockfiles.isBelow("5.9.0-beta", "5.9.0") == nil, "a pre-release is not guessed")
    }
}

/// A lockfile too large to be one is said, not parsed; the other lockfiles are still read.
@Suite struct OversizedLockfileTests {
    @Test func anOversizedPodfileLockIsSaid() throws {
        let engine = try TempTree([
            "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;"),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
            "Podfile.lock": .text("PODS:\n" + String(repeating: "  - Pod (1.0)\n", count: 400_000)),
            "Cartfile.resolved": .text("github \"Alamofire/Alamofire\" \"5.8.0\"\n"),
        ]).engine()
        let unreadable = engine.diagnostics.filter { $0.rule == "io.unreadable" && $0.path == "Podfile.lock" }
        #expect(
            unreadable.count == 1 && unreadable.first?.message.contains("larger than 4 MiB") == true, "\(engine.diagnostics.map(\.message))"
        )
        #expect(engine.diagnostics.contains { $0.rule == "privacy.sdk-version-without-manifest" && $0.path == "Cartfile.resolved" })
    }

    /// A Podfile.lock that is a FIFO is said, never waited on; the Cartfile is still judged.
    @Test func aLockfileThatCannotBeReadIsSaid() throws {
        let tree = try TempTree([
            "App.xcodeproj/project.pbxproj": ExampleTrees.pbxproj(buildSettings: "INFOPLIST_FILE = App/Info.plist; SDKROOT = iphoneos;"),
            "App/Info.plist": ExampleTrees.plist("<key>CFBundleName</key><string>App</string>"),
            "Cartfile.resolved": .text("github \"Alamofire/Alamofire\" \"5.8.0\"\n"),
        ])
        #expect(mkfifo(tree.path + "/Podfile.lock", 0o644) == 0)
        let engine = tree.engine()
        #expect(
            engine.diagnostics.contains { $0.rule == "io.unreadable" && $0.path == "Podfile.lock" }, "\(engine.diagnostics.map(\.message))")
        #expect(engine.diagnostics.contains { $0.rule == "privacy.sdk-version-without-manifest" && $0.path == "Cartfile.resolved" })
    }
}

extension LockfilesTests {
    /// A hostile Package.resolved of many pins costs one pass: only the wanted pins' lines are looked up.
    @Test func manyPinsOnlyTheWantedAreLookedUp() {
        let pins = (0..<9_000).map { "{\"identity\":\"p\($0)\",\"state\":{\"version\":\"1.0\"}}" }.joined(separator: ",\n")
        let text = "{\"pins\":[\n" + pins + ",\n{\"identity\":\"alamofire\",\"state\":{\"version\":\"5.8.0\"}}]}"
        let found = Lockfiles.packageResolved(Array(text.utf8), wanted: ["alamofire"])
        #expect(found == [LockedDependency(name: "alamofire", version: "5.8.0", line: 9_002)])
    }
}
