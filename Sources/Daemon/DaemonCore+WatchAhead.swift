import Foundation
import SystemCalls

/// The roots a daemon starts with are all given to the watcher at once, before their turn to be
/// scanned (`start` scans them one after another). The watcher's thread places their watches
/// while the first roots are scanned, and says so for each (`.rescan(reason: .watchAdded)`). A
/// root whose watches are in place before its scan begins needs no rescan after it: every change
/// from then on is an event, and the scan reads whatever came before. A root whose scan begins
/// before its watches are in place (a root added by `watch/add`; the first root, unless the
/// watcher's thread was quicker) is rescanned once they are, as every root was before.
///
/// Whether a root's watches are in place is known two ways: the watcher's word, read by the
/// core's event loop, or the watcher asked (`watchesPlaced`) just before the scan begins. The
/// second makes the first unnecessary, and the rescans spared independent of when the event loop
/// runs; the word, read later, is then no reason to rescan.
struct WatchedAhead {
    /// Given to the watcher ahead of their turn, and not scanned yet.
    var asked: Set<String> = []
    /// Of those, the ones whose word (`.watchAdded`) was read.
    var inPlace: Set<String> = []
    /// Roots found, by asking the watcher, to have their watches in place when their scan began,
    /// before their word was read.
    var found: Set<String> = []
}

extension DaemonCore {
    /// The configured roots that can be watched ahead: folders that can be read, each overlapping
    /// no other, nor a root already `watched` (an overlapping root is refused by `addRoot`, and its
    /// watches, once placed, would take the events of the root it lies in, and their removal
    /// those of the root it holds). The others are watched in their turn.
    static func watchableAhead(_ roots: [String], besides watched: [String] = []) -> [String] {
        var count: [String: Int] = [:]
        for root in roots + watched { count[root, default: 0] += 1 }
        // Another root lies in this one when this one is an ancestor of it; this one lies in
        // another when one of its ancestors is a root. By ancestors, not by pairs: 1,000 roots are
        // 1,000 lookups of a few each, not a million comparisons.
        let holdingAnother = Set(count.keys.flatMap(ancestors))
        return roots.filter { root in
            count[root] == 1 && !holdingAnother.contains(root) && !ancestors(of: root).contains { count[$0] != nil }
                && (try? FileSystem.statusFollowingLinks(root))?.kind == .directory && FileSystem.isReadable(root)
        }
    }

    /// The folders an absolute path lies in: "/", "/a", "/a/b" for "/a/b/c".
    static func ancestors(of path: String) -> [String] {
        var out: [String] = []
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            out.append(slash == path.startIndex ? "/" : String(path[..<slash]))
            end = slash
        }
        return path == "/" ? [] : out
    }

    /// The watcher says that `root`'s watches are in place (`.watchAdded`): true when the root
    /// was watched ahead and its scan has not begun, which then needs no rescan after it, or when
    /// its scan began with its watches found in place.
    func watchedAheadInPlace(_ root: String) -> Bool {
        if watchedAhead.found.remove(root) != nil { return true }
        guard watchedAhead.asked.contains(root) else { return false }
        watchedAhead.inPlace.insert(root)
        return true
    }

    /// Whether a root about to be scanned has its watches in place: the watcher said so, or, for
    /// a root watched ahead, says so when asked now.
    func watchesInPlaceBeforeScan(_ root: String, watchedAhead wasAhead: Bool) -> Bool {
        if watchedAhead.inPlace.remove(root) != nil { return true }
        guard wasAhead, watcher.watchesPlaced(root) else { return false }
        watchedAhead.found.insert(root)
        return true
    }

    /// Roots watched ahead that lie in `root`, about to be watched: each will be refused in its
    /// turn (it overlaps), so its watches go now, before `root`'s are placed over them.
    func forgetWatchedAhead(within root: String) {
        for waiting in watchedAhead.asked where waiting != root && Self.within(waiting, root) { forgetWatchedAhead(waiting) }
    }

    /// A root watched ahead that will not be scanned after all (removed before its turn, or
    /// refused): its watches go.
    func forgetWatchedAhead(_ root: String) {
        if watchedAhead.asked.remove(root) != nil { watcher.remove(root: root) }
        watchedAhead.inPlace.remove(root)
        watchedAhead.found.remove(root)
    }
}
