import Foundation

/// Trees a fix test changes: a copy of a folder, and every file's bytes (the journal's left out)
/// to compare before and after.
public enum FixTrees {
    /// Every file under `root` but the journal's.
    public static func snapshot(_ root: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard !path.hasPrefix(".reswatch/fix"), FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue, let data = FileManager.default.contents(atPath: root + "/" + path)
            else { continue }
            out[path] = data
        }
        return out
    }

    public static func copy(_ source: String) throws -> TempTree {
        let tree = try TempTree()
        let copied = try runCommand("/bin/cp", ["-a", source + "/.", tree.path])
        guard copied.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: copied.stderr]) }
        return tree
    }
}
