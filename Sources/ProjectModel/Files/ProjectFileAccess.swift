import Glibc
import SystemCalls

/// How project-model code reads files, so the engine can record every path it touched.
/// Paths are relative to the watched root ("" is the root itself).
public protocol ProjectFileAccess {
    func read(_ path: String) -> Result<[UInt8], SystemError>
    func list(_ directory: String) -> Result<[DirectoryEntry], SystemError>
}

/// Files held in memory (root-relative path → bytes): for fuzzing and tests that need no disk.
public struct InMemoryFiles: ProjectFileAccess, Sendable {
    public var files: [String: [UInt8]]

    public init(_ files: [String: [UInt8]]) { self.files = files }

    public func read(_ path: String) -> Result<[UInt8], SystemError> {
        files[path].map { .success($0) } ?? .failure(SystemError(call: "open", path: path, errno: ENOENT))
    }

    public func list(_ directory: String) -> Result<[DirectoryEntry], SystemError> {
        let prefix = directory.isEmpty ? "" : directory + "/"
        var names: [String: Bool] = [:]
        for path in files.keys where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            guard let first = rest.split(separator: "/", omittingEmptySubsequences: false).first, !first.isEmpty else { continue }
            names[String(first), default: false] = names[String(first), default: false] || rest.count > first.count
        }
        guard !names.isEmpty else { return .failure(SystemError(call: "opendir", path: directory, errno: ENOENT)) }
        return .success(names.sorted { $0.key < $1.key }.map { DirectoryEntry(name: $0.key, isDirectory: $0.value) })
    }
}
