import Synchronization
import SystemCalls

/// Which target's paths hold a path, answered by looking up the path's ancestors in tables built
/// once per context, not by testing every path of every target per question (a repository of
/// 50 targets and thousands of listed resources asked it per subject per rule: issue 63).
/// Same answers as `RelativePath.isWithin` over the lists: a path is within itself and each of
/// its folders ("" holds everything); names compare as Swift strings compare.
struct OwnershipIndex: Sendable {
    /// Each listed path: the first other target listing it (by `otherTargets` order) and whether
    /// the app's own paths list it.
    private var owners: [String: (other: Int?, own: Bool)] = [:]
    /// Every target's resources (the app's and the others'), as listed and lowercased.
    private var bundled: Set<String> = []
    private var bundledFolded: Set<String> = []

    init(context: ProjectContext) {
        for (index, target) in context.otherTargets.enumerated() {
            for path in target.paths where owners[path]?.other == nil { owners[path, default: (nil, false)].other = index }
        }
        for path in context.ownedPaths + (context.infoPlist.map { [RelativePath.parent($0)] } ?? []) {
            owners[path, default: (nil, false)].own = true
        }
        for resources in [context.ownedPaths] + context.otherTargets.map(\.resources) {
            for path in resources {
                bundled.insert(path)
                bundledFolded.insert(path.lowercased())
            }
        }
    }

    /// `path`, then each folder above it, deepest first, ending with "".
    static func ancestors(_ path: String, _ body: (String) -> Bool) {
        var current = Substring(path)
        while true {
            if body(String(current)) { return }
            if current.isEmpty { return }
            guard let slash = current.utf8.lastIndex(of: UInt8(ascii: "/")) else {
                current = ""
                continue
            }
            current = current[..<slash]
        }
    }

    /// The other target holding `path` most specifically, unless the app's own paths hold it as
    /// specifically or more.
    func otherTarget(containing path: String) -> Int? {
        var found: Int?
        Self.ancestors(path) { candidate in
            guard let entry = owners[candidate] else { return false }
            found = entry.own ? nil : entry.other
            return true
        }
        return found
    }

    /// Whether some target's resources hold `path` (`folded`: names compared lowercased).
    func isBundled(_ path: String, folded: Bool) -> Bool {
        var hit = false
        let table = folded ? bundledFolded : bundled
        Self.ancestors(folded ? path.lowercased() : path) { candidate in
            hit = table.contains(candidate)
            return hit
        }
        return hit
    }
}

/// The context's `OwnershipIndex`, built at the first question and dropped whenever a field it is
/// built from changes (a fresh box). Not part of the context's value: equal contexts have equal
/// indexes.
final class OwnershipBox: Sendable, Hashable {
    private let index = Mutex<OwnershipIndex?>(nil)

    func index(_ build: () -> OwnershipIndex) -> OwnershipIndex {
        if let built = index.withLock({ $0 }) { return built }
        let built = build()
        index.withLock { $0 = built }
        return built
    }

    static func == (lhs: OwnershipBox, rhs: OwnershipBox) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
