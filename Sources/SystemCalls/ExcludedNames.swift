/// Folder names a walk leaves out: exact names (`build`, `Pods`) and, written `*.framework`, name
/// endings. The tree, the watcher and `check` match names with the same rules.
public struct ExcludedNames: Sendable, Hashable {
    public let names: Set<String>
    /// Endings (".framework") of the `*.x` entries, as bytes.
    private let endings: [[UInt8]]

    public init(_ entries: Set<String>) {
        names = entries
        endings = entries.filter { $0.hasPrefix("*.") && $0.count > 2 }.map { Array($0.utf8.dropFirst()) }
    }

    public func contains(_ name: String) -> Bool {
        if names.contains(name) { return true }
        guard !endings.isEmpty else { return false }
        // Only a name with a dot can end in one: most names of a walk have one, so the ending is
        // compared on the bytes, without building a string.
        var name = name
        return name.withUTF8 { bytes in
            endings.contains { e in
                bytes.count > e.count && zip(bytes[(bytes.count - e.count)...], e).allSatisfy { $0 == $1 }
            }
        }
    }
}
