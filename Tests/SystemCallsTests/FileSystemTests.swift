import Foundation
import Glibc
import SystemCalls
import Testing

@Suite struct FileSystemTests {
    @Test func statReadAndList() throws {
        let dir = NSTemporaryDirectory() + "/reswatch-fs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir + "/b.txt"))
        let status = try FileSystem.status(dir + "/b.txt")
        #expect(status.kind == .regular && status.size == 5)
        #expect(try FileSystem.readFile(dir + "/b.txt") == Array("hello".utf8))
        #expect(
            try FileSystem.listDirectory(dir) == [
                DirectoryEntry(name: "b.txt", isDirectory: false), DirectoryEntry(name: "sub", isDirectory: true),
            ])
        #expect(try FileSystem.status(dir + "/sub").kind == .directory)
    }

    /// The listing the tree is built from stats each entry relative to the directory: the same
    /// `lstat` a path would give, for a link (not followed), a FIFO, a name that is not UTF-8 and a
    /// link to a directory; only real directories come back without a status.
    @Test func listingWithStatusIsEachEntrysLstat() throws {
        let dir = NSTemporaryDirectory() + "/reswatch-fs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir + "/b.txt"))
        #expect(symlink("b.txt", dir + "/link") == 0)
        #expect(symlink("sub", dir + "/dirlink") == 0)
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        let latin1: [UInt8] = Array((dir + "/caf").utf8) + [0xE9, 0]  // "café" in Latin-1: not UTF-8
        let fd = latin1.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(fd >= 0)
        _ = write(fd, "abc", 3)
        close(fd)

        let listed = try FileSystem.listDirectoryWithStatus(dir)
        #expect(listed.map(\.name) == (try FileSystem.listDirectory(dir)).map(\.name), "same names, same order as the plain listing")
        for (name, status) in listed {
            let byPath = try FileSystem.status(dir + "/" + name)
            if name == "sub" {
                #expect(status == nil, "a directory is descended into, not stat'ed")
            } else {
                #expect(status?.key == byPath.key && status?.kind == byPath.kind && status?.mode == byPath.mode, "\(name)")
            }
        }
        let kinds = Dictionary(uniqueKeysWithValues: listed.map { ($0.name, $0.status?.kind) })
        #expect(kinds["link"] == .symlink && kinds["dirlink"] == .symlink && kinds["fifo"] == .other && kinds["b.txt"] == .regular)
        #expect(listed.contains { $0.status?.size == 3 }, "the non-UTF-8 name is stat'ed by its own bytes")
        #expect(throws: SystemError.self) { try FileSystem.listDirectoryWithStatus(dir + "/nonexistent") }
    }

    /// The watcher's listing: real subfolders only, whatever else the folder holds (files, a link
    /// to a folder, a FIFO, a subfolder whose name is not UTF-8).
    @Test func subdirectoryNamesAreTheRealSubfoldersOnly() throws {
        let dir = NSTemporaryDirectory() + "/reswatch-fs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub/deeper", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/Icon.appiconset", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0..<300 { try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/f\(i).png")) }
        #expect(symlink("sub", dir + "/dirlink") == 0)
        #expect(symlink("/", dir + "/outside") == 0)
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        let latin1: [UInt8] = Array((dir + "/caf").utf8) + [0xE9, 0]  // not UTF-8
        #expect(latin1.withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) } == 0)
        let names = try FileSystem.subdirectoryNames(dir)
        #expect(names.count == 3)
        #expect(Set(names).isSuperset(of: ["sub", "Icon.appiconset"]))
        let other = try #require(names.first { $0 != "sub" && $0 != "Icon.appiconset" })
        #expect(try FileSystem.status(dir + "/" + other).kind == .directory, "the Latin-1 name round-trips to the folder")
        #expect(throws: SystemError.self) { try FileSystem.subdirectoryNames(dir + "/f0.png") }
    }

    @Test func errorsCarryCallPathAndErrno() {
        #expect(throws: SystemError.self) { try FileSystem.readFile("/nonexistent/file") }
        do {
            _ = try FileSystem.listDirectory("/nonexistent")
        } catch {
            #expect(error.call == "opendir" && error.isNotFound && error.description.contains("/nonexistent"))
        }
    }

    @Test func refusesOversizedFiles() throws {
        let path = NSTemporaryDirectory() + "/reswatch-big-\(UUID().uuidString)"
        try Data(repeating: 7, count: 2048).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SystemError.self) { try FileSystem.readFile(path, limit: 1024) }
    }

    @Test func absolutePathNormalises() {
        #expect(FileSystem.absolutePath("/a/./b/../c") == "/a/c")
        #expect(FileSystem.absolutePath("x").hasSuffix("/x"))
    }

    /// A path handed back unchanged keeps its bytes: two spellings of "é" (one letter, or "e" and
    /// a combining accent) are equal Swift strings but two names on Linux. A folder spelled one
    /// way and a link to it spelled the other: each path is its own absolute path, and the link's
    /// real path is the folder's, not the link's own spelling.
    @Test func pathsKeepTheirBytes() throws {
        let dir = try #require(FileSystem.realPath(NSTemporaryDirectory())) + "/reswatch-fs-\(UUID().uuidString)"
        let folder = dir + "/cafe\u{301}"
        let link = dir + "/caf\u{E9}"
        #expect(folder == link, "one Swift string")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try FileSystem.listDirectory(dir).count == 2, "two names")
        for path in [folder, link] {
            #expect(Array(FileSystem.absolutePath(path).utf8) == Array(path.utf8))
            #expect(Array(FileSystem.absolutePath(dir + "/./x/.." + path.dropFirst(dir.count)).utf8) == Array(path.utf8))
            #expect(Array(try #require(FileSystem.realPath(path)).utf8) == Array(folder.utf8))
        }
    }
}
