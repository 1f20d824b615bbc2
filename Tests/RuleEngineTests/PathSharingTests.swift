import Foundation
import ImageFacts
import RuleKit
import SystemCalls
import TestSupport
import Testing

@testable import RuleEngine

/// The index stores each name once and no path: the tree is a node store (ids, one name arena),
/// the subject index refers to the tree's nodes, and removed nodes' ids and bytes are reused.
@Suite struct PathSharingTests {
    @Test func eachNameIsStoredOnceAndNoPathAtAll() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "/Contents.json": .text(
                #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"icon-60@2x.png"}]}"#),
            set + "/icon-60@2x.png": .png(PNGSpec(width: 120, height: 120)),
            "App/Info.plist": .text("<plist><dict/></plist>"),
        ])
        let engine = tree.engine()
        // Every file and folder below the root, by its own name.
        let names = ["App", ".reswatch.yaml", "Assets.xcassets", "AppIcon.appiconset", "Contents.json", "icon-60@2x.png", "Info.plist"]
        #expect(engine.tree.nameBytes == names.reduce(0) { $0 + $1.utf8.count }, "the tree holds each name's bytes once, no paths")
        #expect(engine.tree.fileCount == 4)
        let icon = set + "/icon-60@2x.png"
        #expect(engine.subjects.project(of: Subject(.image, icon), in: engine.tree) == "App")
        #expect(engine.subjects.project(of: Subject(.assetSet, set), in: engine.tree) == "App")
        // image, asset set, catalog, Info.plist and the project itself.
        #expect(engine.subjects.count == 5)
    }

    @Test func removedNodesAndTheirNamesAreReused() throws {
        let tree = try TempTree(["App/.reswatch.yaml": .text("devices: [iphone]\n")])
        let engine = tree.engine()
        let long = String(repeating: "n", count: 200)
        var capacities: [Int] = []
        for round in 0..<40 {
            let names = (0..<50).map { "App/\(long)-\(round)-\($0).png" }
            try tree.write(Dictionary(uniqueKeysWithValues: names.map { ($0, .png(PNGSpec(width: 1, height: 1))) }))
            engine.apply(changedPaths: names.map { tree.path + "/" + $0 })
            #expect(engine.tree.fileCount == 51)
            for n in names { try FileManager.default.removeItem(atPath: tree.path + "/" + n) }
            engine.apply(changedPaths: names.map { tree.path + "/" + $0 })
            #expect(engine.tree.fileCount == 1)
            capacities.append(engine.tree.nodes.capacity)
        }
        #expect(Set(capacities).count == 1, "ids of removed files are reused: \(Set(capacities))")
        // 40 rounds wrote 400 KB of names; the arena is compacted once garbage outweighs live names.
        #expect(engine.tree.nodes.arena.count < 200_000, "arena: \(engine.tree.nodes.arena.count) bytes")
        #expect(engine.subjects.count == 1, "only the project remains a subject")
    }

    /// A set's evaluation keeps its folder's listing, not one entry per image it read; a change to
    /// an image still re-runs it.
    @Test func aSetsRecordKeepsItsListingNotEachImageAndStillSeesTheirChanges() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            set + "/Contents.json": .text(
                #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"a.png"},{"idiom":"ios-marketing","size":"1024x1024","scale":"1x","filename":"m.png"}]}"#
            ),
            set + "/a.png": .png(PNGSpec(width: 120, height: 120)),
            set + "/m.png": .png(PNGSpec(width: 1024, height: 1024)),
        ])
        let engine = tree.engine()
        let images = engine.store.inputs.filter { if case .file(let p) = $0 { p.hasSuffix(".png") } else { false } }
        #expect(images.isEmpty, "no per-image entries: \(images)")
        #expect(!engine.diagnostics.contains { $0.rule == "icon.size-mismatch" })
        try tree.write([set + "/a.png": .png(PNGSpec(width: 121, height: 120))])
        engine.apply(changedPaths: [tree.path + "/" + set + "/a.png"])
        #expect(engine.diagnostics.contains { $0.rule == "icon.size-mismatch" }, "the set's evaluation re-ran")
    }

    /// The engine's records name paths by id: each path or rule name they refer to is held once in
    /// the store's table, and the table empties when the files and their records go.
    @Test func theEvaluationStoreHoldsEachPathOnceAndFreesItWithItsRecords() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        var files: [String: ExampleFile] = [
            "App/.reswatch.yaml": .text("devices: [iphone]\n"),
            "App/Info.plist": .text("<plist><dict><key>CFBundleIconName</key><string>AppIcon</string></dict></plist>"),
            set + "/Contents.json": .text(
                #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"a.png"},{"idiom":"iphone","size":"60x60","scale":"3x","filename":"b.png"}]}"#
            ),
            set + "/a.png": .png(PNGSpec(width: 121, height: 120)),
            set + "/b.png": .png(PNGSpec(width: 180, height: 180)),
        ]
        for i in 0..<20 { files["App/Assets.xcassets/S\(i).imageset/Contents.json"] = .text(#"{"images":[]}"#) }
        let tree = try TempTree(files)
        let engine = tree.engine()
        #expect(engine.diagnostics.contains { $0.rule == "icon.size-mismatch" })
        var referred = Set<String>()
        for key in engine.store.keys {
            referred.insert(key.rule)
            referred.insert(key.subject.path)
        }
        for input in engine.store.inputs {
            switch input {
            case .file(let p), .listing(let p): referred.insert(p)
            case .subjectsOf(let project, _): referred.insert(project)
            }
        }
        #expect(engine.store.count > 20)
        #expect(engine.store.strings.count == referred.count, "each path and rule name once, nothing else")
        try FileManager.default.removeItem(atPath: tree.path + "/App")
        engine.apply(changedPaths: [tree.path + "/App"])
        #expect(engine.store.isEmpty)
        #expect(engine.store.strings.count == 0, "no string outlives its records")
    }

    /// A path found from an evaluation's folder is the node a walk from the root finds, for paths
    /// below the folder, beside it (a sibling whose name starts with the folder's), above it and
    /// not in the tree at all.
    /// A project keeps what resolving it read in an array: an input is its path and a byte or
    /// two, 24 bytes, not the 32 of the kind's byte padded before the path.
    @Test func anInputIsAPathAndAKind() {
        #expect(MemoryLayout<EvaluationInput>.stride == 24)
        #expect(EvaluationInput.subjects(.infoPlist, project: "App") == .subjectsOf(project: "App", kind: .infoPlist))
        #expect(EvaluationInput.subjects(.infoPlist, project: "App") != .subjects(.assetSet, project: "App"))
    }

    @Test func pathsFoundFromAFolderAreThePathsFoundFromTheRoot() throws {
        let set = "App/Assets.xcassets/AppIcon.appiconset"
        let tree = try TempTree([
            set + "/Contents.json": .text(#"{"images":[]}"#),
            set + "/a.png": .png(PNGSpec(width: 1, height: 1)),
            set + "/sub/b.png": .png(PNGSpec(width: 1, height: 1)),
            set + "2/a.png": .png(PNGSpec(width: 1, height: 1)),
            "App/Ic\u{F4}ne/a.png": .png(PNGSpec(width: 1, height: 1)),
            "App/Info.plist": .text("<plist><dict/></plist>"),
        ])
        let engine = tree.engine()
        let paths = [
            "", "App", set, set + "/", set + "/a.png", set + "/sub", set + "/sub/b.png", set + "/sub/", set + "//a.png",
            set + "/missing.png", set + "2/a.png", set + "2", "App/Info.plist", "App/Ic\u{F4}ne/a.png", "App/Ico\u{302}ne/a.png",
            set + "/a.png/x",
        ]
        for folder in [set, set + "/sub", "App", "App/Ic\u{F4}ne", "App/Info.plist", ""] {
            let anchor = engine.tree.node(folder).flatMap(engine.tree.anchor)
            #expect((anchor == nil) == (folder.isEmpty || folder == "App/Info.plist"), "only folders below the root anchor: \(folder)")
            for path in paths {
                #expect(engine.tree.node(path, from: anchor) == engine.tree.node(path), "\(path) from \(folder)")
                #expect(engine.tree.status(of: path, from: anchor)?.key == engine.tree.status(of: path)?.key, "\(path) from \(folder)")
            }
        }
    }
}

/// `check PATH` counts the files in its scope on the tree's nodes; the count is the one the paths
/// give, for the root, a folder, a file, a set named by its Contents.json, an unreadable folder and
/// a path the tree does not hold.
@Suite struct ScopeFileCountTests {
    @Test func aScopesFileCountIsTheOneItsPathsGive() throws {
        let temp = try TempTree([
            "App/Assets.xcassets/A.imageset/Contents.json": .text(#"{"images":[]}"#),
            "App/Assets.xcassets/A.imageset/a.png": .png(PNGSpec(width: 1, height: 1)),
            "App/Assets.xcassets/B.imageset/b.png": .png(PNGSpec(width: 1, height: 1)),
            "App/Info.plist": .text("<plist/>"),
            "App/Locked/x.png": .png(PNGSpec(width: 1, height: 1)),
            "Other/c.png": .png(PNGSpec(width: 1, height: 1)),
        ])
        chmod(temp.path + "/App/Locked", 0)
        defer { chmod(temp.path + "/App/Locked", 0o755) }
        var tree = ResourceTree(root: temp.path)
        _ = tree.scanAll()
        let paths = tree.filePaths
        for scope in [
            "", "App", "App/Assets.xcassets", "App/Assets.xcassets/A.imageset/Contents.json", "App/Info.plist", "App/Locked", "Nope",
        ] {
            let s = DiagnosticScope(relativePath: scope)
            #expect(tree.fileCount(under: s.path) == paths.count(where: s.contains(path:)), "\(scope)")
        }
        #expect(tree.fileCount(under: "App/Assets.xcassets/A.imageset/Contents.json") == 1)
        #expect(tree.fileCount(under: DiagnosticScope(relativePath: "App/Assets.xcassets/A.imageset/Contents.json").path) == 2)
    }
}

/// Names are matched as Xcode on APFS matches them: under canonical equivalence, whatever bytes.
@Suite struct TreeNameEquivalenceTests {
    @Test func aDecomposedNameOnDiskIsFoundByItsPrecomposedSpelling() throws {
        let decomposed = "Ic\u{6F}\u{302}ne.png"  // o + combining circumflex
        let precomposed = "Ic\u{F4}ne.png"
        #expect(Array(decomposed.utf8) != Array(precomposed.utf8))
        let temp = try TempTree(["Set.imageset/" + decomposed: .png(PNGSpec(width: 1, height: 1)), "Set.imageset/plain.png": .text("")])
        var tree = ResourceTree(root: temp.path)
        _ = tree.scanAll()
        #expect(tree.isFile("Set.imageset/" + precomposed))
        #expect(tree.isFile("Set.imageset/" + decomposed))
        #expect(tree.isFile("Set.imageset/plain.png"))
        #expect(!tree.isFile("Set.imageset/Icone.png"))
        #expect(tree.path(of: try #require(tree.node("Set.imageset/" + precomposed))) == "Set.imageset/" + decomposed)
    }

    /// Children are binary-searched by their name bytes (memcmp): names that share prefixes,
    /// differ only in length, or hold bytes above 0x7F are each found, and nothing else is.
    @Test func everyNameIsFoundAmongNamesSharingPrefixes() throws {
        let names = [
            "Icon", "Icon-", "Icon-20@2x.png", "Icon-20@3x.png", "Icon-20.png", "Icon-2", "Icon-\u{E9}.png",
            "Icon-\u{FF}.png", "Icon-\u{1F600}.png", "IconZ", "a", "\u{7F}x",
        ]
        var files: [String: ExampleFile] = [:]
        for name in names { files["S/" + name] = .text("") }
        let temp = try TempTree(files)
        var tree = ResourceTree(root: temp.path)
        _ = tree.scanAll()
        for name in names { #expect(tree.isFile("S/" + name), "\(name)") }
        for missing in ["Ico", "Icon-20@2x.pn", "Icon-20@2x.pngg", "Icon-\u{FE}.png", "Icon-\u{1F601}.png", "b"] {
            #expect(!tree.isFile("S/" + missing), "\(missing)")
        }
    }

    /// A node keeps a file's stat in 24 bytes (not `FileStatus`'s 48), and what it keeps is what a
    /// change is judged by: new content or a new mode is a change; the owner alone is not.
    @Test func aFilesStatIsPackedAndStillTellsAChange() throws {
        #expect(MemoryLayout<PackedStatus>.stride == 24)
        let tree = try TempTree(["App/icon.png": .png(PNGSpec(width: 2, height: 2))])
        var index = ResourceTree(root: tree.path)
        _ = index.scanAll()
        let path = tree.path + "/App/icon.png"
        let disk = try FileSystem.status(path)
        let kept = try #require(index.status(of: "App/icon.png"))
        #expect(kept.key == disk.key && kept.kind == .regular && kept.mode == disk.mode)
        #expect(index.refresh("App/icon.png").modified.isEmpty, "nothing changed")
        chmod(path, 0o600)
        #expect(index.refresh("App/icon.png").modified == ["App/icon.png"], "a new mode is a change")
        if getuid() == 0 {
            chown(path, 4321, 4321)
            #expect(index.refresh("App/icon.png").modified.isEmpty, "the owner alone is not")
        }
        try tree.write(["App/icon.png": .png(PNGSpec(width: 3, height: 3))])
        #expect(index.refresh("App/icon.png").modified == ["App/icon.png"], "new content is a change")
        #expect(index.status(of: "App/icon.png")?.key == (try FileSystem.status(path)).key)
    }

    /// A real sparse file of 2 TiB, a size past the 40 bits a node keeps: kept as 1 TiB - 1, and
    /// a write that leaves it past 40 bits is still a change (its time moved). Nothing reads it:
    /// a file over 64 MiB is refused with an error of its own.
    @Test func aFileOfTwoTebibytesIsKeptClampedAndItsWritesStillShow() throws {
        let tree = try TempTree(["App/huge.png": .text("")])
        let path = tree.path + "/App/huge.png"
        try #require(truncate(path, 2 << 40) == 0, "a sparse file of 2 TiB: errno \(errno)")
        var index = ResourceTree(root: tree.path)
        _ = index.scanAll()
        #expect(index.status(of: "App/huge.png")?.key.size == PackedStatus.largestSize)
        #expect(index.refresh("App/huge.png").modified.isEmpty, "nothing changed")
        try #require(truncate(path, (2 << 40) + 1) == 0)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(index.refresh("App/huge.png").modified == ["App/huge.png"], "a new time is a change")
        #expect(index.status(of: "App/huge.png")?.key.size == PackedStatus.largestSize)
    }
}
