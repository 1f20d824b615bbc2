import Dispatch
import RuleEngine
import Synchronization

/// The roots of a check, walked on other threads while the rule modules load on this one: the
/// walk waits on the file system, the loading (composing the built-in modules' YAML) on the CPU,
/// and a check did one after the other (docs/performance.md). An engine given a walked tree
/// (`Engine.fullScan(walked:)`) does not walk it again.
package final class CheckWalks: Sendable {
    private let walked = Mutex<[String: ResourceTree]>([:])
    private let done = DispatchGroup()

    package init(roots: [String], excludes: Set<String>) {
        for root in Set(roots) {
            done.enter()
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                var tree = ResourceTree(root: root, excludes: excludes)
                tree.scanAll(reportAdded: false)
                walked.withLock { $0[root] = tree }
                done.leave()
            }
        }
    }

    /// `root` walked, once every walk has finished; each tree is handed out once.
    package func tree(_ root: String) -> ResourceTree? {
        done.wait()
        return walked.withLock { $0.removeValue(forKey: root) }
    }
}
