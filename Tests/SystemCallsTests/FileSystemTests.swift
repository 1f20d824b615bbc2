import Foundation
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
}
